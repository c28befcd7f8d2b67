import re

import pytest
import yaml
from django.test import Client

pytestmark = pytest.mark.django_db

PUBLIC_API_PATHS = [
    "/api/releases/", "/api/releases/{series}/", "/api/releases/{series}/latest/",
    "/api/releases/{series}/{version}/",
    "/rest-api/mariadb/", "/rest-api/mariadb/{release_id}/", "/rest-api/mariadb/{release_id}/latest/",
    "/rest-api/mariadb/{release_id}/{file_ref}/checksum/", "/rest-api/mariadb/{file_ref}/checksum/",
    "/rest-api/mariadb/{release_id}/{file_ref}", "/rest-api/mirrors/",
    "/api/repo-config", "/api/repo-config/options",
    "/api/feedback/summary", "/api/feedback/summary.json", "/api/feedback/summary.csv",
    "/api/feedback/trends/{dimension}", "/api/feedback/trends/{dimension}.csv",
    "/api/benchmarks/{slug}.json", "/api/benchmarks/{slug}.csv",
]  # fmt: skip


def test_the_schema_documents_every_public_api(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    assert set(PUBLIC_API_PATHS) <= set(schema["paths"])
    repo = schema["paths"]["/api/repo-config"]["get"]
    assert {p["name"] for p in repo["parameters"]} >= {
        "distro",
        "release",
        "version",
        "mirror",
        "arch",
        "format",
    }
    assert "text/plain" in repo["responses"]["400"]["content"]
    compat = schema["paths"]["/rest-api/mariadb/{release_id}/"]["get"]
    assert {p["name"] for p in compat["parameters"]} == {"release_id", "os", "cpu"}
    ours = schema["paths"]["/api/releases/{series}/{version}/"]["get"]
    assert {p["name"] for p in ours["parameters"]} == {"series", "version", "os", "arch", "package"}
    # The spellings without a trailing slash answer but are not documented twice.
    assert "/rest-api/mariadb/{release_id}" not in schema["paths"]


def test_the_docs_page_is_served_from_our_own_static_files(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources)
    assert all(s.startswith("/") for s in sources), sources  # no CDN
    assert "<script>" not in html  # the start-up script is a separate file (CSP)
    script = next(s for s in sources if "script" in s and "swagger" not in s)
    init = Client().get(script)
    assert init["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in init.content.decode()
