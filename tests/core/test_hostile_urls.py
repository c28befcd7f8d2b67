"""No public URL answers 500, whatever a client puts in its path, query or cookies.

The URL patterns come from the resolver, so a page added later is walked too.
Real values for each pattern (a series that exists, a document slug, a run id)
come from crawling the demo site from its home page, so hostile values reach
the views and queries behind a valid prefix rather than stopping at a 404.
"""

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.foundation.factories import DocumentVersionFactory, UserFactory
from tests.releases.factories import SeriesFactory

pytestmark = pytest.mark.django_db

# Percent-encoded as a client would send them; each once broke a page or could.
HOSTILE_VALUES = [
    "%00",
    "a%00b",
    "abc",
    "-1",
    "0",
    "1e309",
    "NaN",
    "9" * 40,
    "x" * 3000,
    "%ff%fe%fd",  # not UTF-8
    "%c0%af",  # overlong UTF-8 encoding of "/"
    "%ed%a0%80",  # an encoded UTF-16 surrogate
    "%e2%80%ae",  # right-to-left override
    "..%2f..%2fetc%2fpasswd",
    "%0d%0aSet-Cookie:%20x=1",
    "'%20OR%201=1--",
    "%3Cscript%3E",
]
PLACEHOLDER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")
PROJECT_DIRS = ["core", "foundation", "sponsors", "releases", "feedback", "benchmarks"]
QUERY_PARAM_IN_SOURCE = re.compile(r"""(?:GET|query_params)\.get\(\s*["'](\w+)["']""")


def routes(patterns=None, prefix=""):
    """Every URL pattern of the project as a route string, e.g. ``download/<str:series>/``."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def placeholders(route):
    return [a or b for a, b in PLACEHOLDER.findall(route)]


def build_path(route, values):
    """The route with each placeholder replaced by its (already encoded) value."""
    names = iter(placeholders(route))

    def fill(_match):
        return values[next(names)]

    return "/" + PLACEHOLDER.sub(fill, route).replace("^", "").replace("$", "")


@cache  # the property test asks for each example; the sources do not change in a run
def query_names_in_source() -> frozenset[str]:
    base = Path(settings.BASE_DIR)
    names = set()
    for directory in PROJECT_DIRS:
        for source in (base / directory).rglob("*.py"):
            names.update(QUERY_PARAM_IN_SOURCE.findall(source.read_text()))
    return frozenset(names)


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.get_forms, self._form = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag == "form" and (attrs.get("method") or "get").lower() == "get":
            self._form = {"action": attrs.get("action") or "", "fields": {}}
        elif self._form is not None and tag in {"input", "select", "option"}:
            if tag in {"input", "select"} and attrs.get("name"):
                self._form["fields"].setdefault(attrs["name"], attrs.get("value") or "")
                self._form["last"] = attrs["name"]
            elif tag == "option" and attrs.get("value") and self._form.get("last"):
                fields = self._form["fields"]
                fields[self._form["last"]] = fields[self._form["last"]] or attrs["value"]

    def handle_endtag(self, tag):
        if tag == "form" and self._form is not None:
            self.get_forms.append(self._form)
            self._form = None


def crawl(client, limit=250):
    """Real URLs of the site, one per route: {route: (kwargs, query)}, found from ``/``."""
    examples, queue, seen = {}, ["/"], set()
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        parts = urlsplit(url)
        try:
            match = resolve(parts.path)
        except Resolver404:
            continue
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        examples.setdefault(match.route, ({k: str(v) for k, v in match.kwargs.items()}, {}))
        if parts.query:
            query = examples[match.route][1]
            query.update(dict(pair.split("=", 1) for pair in parts.query.split("&") if "=" in pair))
        parser = _Links()
        parser.feed(response.content.decode())
        for form in parser.get_forms:
            action = form["action"] or parts.path
            queue.append(action + "?" + urlencode(form["fields"]))
        for link in parser.links:
            target = urlsplit(link)
            if target.netloc or not target.path.startswith("/"):
                continue
            if target.path.startswith((settings.STATIC_URL, settings.MEDIA_URL, "/admin/")):
                continue
            queue.append(target.path + ("?" + target.query if target.query else ""))
    return examples


@pytest.fixture(scope="class")
def demo_site(demo_database):
    """The demo content (the test process's demo database, tests/shared_data.py) and the
    real URLs crawled from it, for the sweeps' class."""
    with demo_database.in_use():
        yield crawl(Client())


def get_status(client, path, query=None):
    url = path + ("?" + query if query else "")
    return client.get(url, HTTP_ACCEPT="text/html").status_code


def public_routes():
    """The resolver's routes minus the admin (staff only; anonymous requests are redirected)."""
    return sorted(route for route in set(routes()) if not route.startswith("admin/"))


def sweep(client, examples, query_names, route_list):
    """Each route with each hostile value in each placeholder, then in its query.

    The query gets the value in every known parameter at once, then in each of the
    parameters the page itself uses (its GET form's fields), one at a time.
    """
    failures = []
    for route in route_list:
        names = placeholders(route)
        real_kwargs, own_query = examples.get(route, ({}, {}))
        real = {name: quote(real_kwargs.get(name, "1"), safe="") for name in names}
        path = build_path(route, real)
        for value in HOSTILE_VALUES:
            for name in names:
                hostile_path = build_path(route, {**real, name: value})
                if (status := get_status(client, hostile_path)) >= 500:
                    failures.append((status, hostile_path))
            queries = [{**own_query, **dict.fromkeys(query_names, value)}]
            queries += [{**own_query, name: value} for name in own_query]
            for query in queries:
                encoded = "&".join(f"{key}={val}" for key, val in query.items())
                if (status := get_status(client, path, encoded)) >= 500:
                    failures.append((status, f"{path}?{encoded}"))
    return failures


def sends_to_sign_in(client, route, examples):
    real_kwargs = examples.get(route, ({}, {}))[0]
    path = build_path(route, {name: real_kwargs.get(name, "1") for name in placeholders(route)})
    response = client.get(path)
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_nul_byte_is_refused_with_400_and_a_reason(client):
    SeriesFactory(version="11.4")
    page = client.get("/download/%00/", HTTP_ACCEPT="text/html")
    assert page.status_code == 400
    assert "the address contains a NUL byte" in page.content.decode()
    api = client.get("/api/releases/11.4%00/")
    assert api.status_code == 400
    assert api["Content-Type"].startswith("text/plain")
    assert api.content.decode() == "Bad request: the address contains a NUL byte.\n"
    query = client.get("/api/repo-config?distro=debian&release=bookworm%00&version=11.4")
    assert query.status_code == 400
    assert "a query parameter contains a NUL byte" in query.content.decode()
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/").status_code == 400


def test_governance_diff_refuses_a_non_number_with_a_reason(client):
    DocumentVersionFactory(number=1, status="adopted", body="The board has six seats.")
    DocumentVersionFactory(number=2, body="The board has eight seats.")
    response = client.get("/about/governance/bylaws/v2/diff/?from=abc", HTTP_ACCEPT="text/html")
    assert response.status_code == 400
    assert "“from” must be a version number" in response.content.decode()
    assert client.get("/about/governance/bylaws/v2/diff/?from=99").status_code == 404
    assert client.get("/about/governance/bylaws/v2/diff/?from=1").status_code == 200


ENCODED_TEXT = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=60).map(lambda text: quote(text, safe="")),
    st.binary(max_size=30).map(lambda raw: quote(raw, safe="")),
    st.sampled_from(HOSTILE_VALUES),
)


class TestOnTheDemoSite:
    """The sweeps, on the demo content loaded once for both."""

    def test_no_hostile_path_or_query_value_gets_a_500(self, client, demo_site):
        query_names = query_names_in_source() | {"page", "q", "next"}
        assert {"from", "mirror", "days"} <= query_names  # the discovery finds real parameters
        anonymous = sweep(client, demo_site, query_names, public_routes())
        # Pages that send strangers to the sign-in page are walked again, signed in.
        members_only = [
            route for route in public_routes() if sends_to_sign_in(client, route, demo_site)
        ]
        assert "sponsors/invitations/<str:token>/" in members_only
        client.force_login(UserFactory())
        signed_in = sweep(client, demo_site, query_names, members_only)
        assert anonymous == [] and signed_in == []

    @hypothesis_settings(
        max_examples=300,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def test_property_every_public_route_survives_hostile_values(self, client, demo_site, data):
        route = data.draw(st.sampled_from(public_routes()))
        real_kwargs, real_query = demo_site.get(route, ({}, {}))
        values = {
            name: data.draw(
                st.one_of(st.just(quote(real_kwargs.get(name, "1"), safe="")), ENCODED_TEXT)
                if name in real_kwargs
                else ENCODED_TEXT
            )
            for name in placeholders(route)
        }
        hostile_query = data.draw(
            st.dictionaries(
                st.sampled_from(sorted(query_names_in_source() | set(real_query) | {"page"})),
                ENCODED_TEXT,
                max_size=4,
            )
        )
        query = "&".join(f"{key}={value}" for key, value in {**real_query, **hostile_query}.items())
        path = build_path(route, values)
        assert get_status(client, path, query) < 500, f"{path}?{query}"
