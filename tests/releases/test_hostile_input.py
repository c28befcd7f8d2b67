import pytest

from tests.releases.factories import ReleaseFileFactory

pytestmark = pytest.mark.django_db

NUL = "%00"
URLS = [
    f"/download/{NUL}/", f"/download/11.4/{NUL}/", f"/download/{NUL}/feed/", f"/download/?series={NUL}&release={NUL}&mirror={NUL}",
    f"/download/11.4/?page={NUL}", f"/api/releases/{NUL}/", f"/api/releases/{NUL}/latest", f"/api/releases/11.4/{NUL}/",
    f"/api/releases/11.4/?os={NUL}", f"/rest-api/mariadb/{NUL}/", f"/rest-api/mariadb/{NUL}/latest/",
    f"/rest-api/mariadb/11.4.1/{NUL}/checksum/", f"/rest-api/mariadb/11.4.1/{NUL}",
    f"/rest-api/mariadb/11.4.1/mariadb-11.4.1.tar.gz?mirror={NUL}", f"/rest-api/mariadb/11.4.1/?os={NUL}&cpu={NUL}",
    f"/download/11.4/11.4.1/?mirror={NUL}", "/rest-api/mariadb/99999999999999999999999/checksum/",
    "/rest-api/mariadb/11.4.1/99999999999999999999999", "/api/releases/11.4/11.4.99999999/",
    "/download/11.4/11.4.1/?mirror=" + "x" * 5000,
]  # fmt: skip


@pytest.mark.parametrize("url", URLS)
def test_nul_bytes_and_junk_never_get_a_server_error(client, url):
    ReleaseFileFactory(release__version="11.4.1")
    response = client.get(url)
    assert response.status_code in {200, 302, 400, 404}, (url, response.status_code)


def test_unknown_api_paths_get_a_json_404(client):
    for url in [
        "/rest-api/mariadb/%C2%84/",
        "/rest-api/products/",
        "/api/releases/eleven/",
        "/rest-api/mariadb/11.4/x/y/z",
    ]:
        response = client.get(url)
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
    assert client.get("/rest-api/mariadb")["Location"] == "/rest-api/mariadb/"
    assert client.get("/api/releases/11.4?os=linux")["Location"] == "/api/releases/11.4/?os=linux"
