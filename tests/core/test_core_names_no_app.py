"""Core knows no app by its URLs: the apps tell it what it must know (the pages never
cached, the menu, the paths whose secrets the logs hide, the secrets production judges)
from their ``AppConfig.ready()``, and what they told it still works."""

import ast
import re

import pytest
from django.apps import apps
from django.test import Client
from django.test.html import parse_html
from django.urls import URLPattern, URLResolver, get_resolver

from core import logredact, pagecache
from core import secrets as site_secrets
from core.outage import database_unavailable_response
from core.pagecache import HIT_HEADER
from donations.signing import manage_token
from tests.core.test_settings import PRODUCTION_ENV
from tests.donations.factories import GiftFactory
from tests.project import ROOT, project_app_configs

pytestmark = pytest.mark.django_db

PROJECT_APPS = {config.name for config in project_app_configs()} - {"core"}
# A path in a string: a slash that follows no word character, dot, colon or slash.
PATH = re.compile(r"(?<![\w.:/])/[\w\-./]+")


def _route_prefixes(patterns, prefix=""):
    """(the literal start of each URL's path, the module of its view)."""
    for entry in patterns:
        route = str(entry.pattern)
        if not hasattr(entry.pattern, "_route"):  # a regular expression: its literal start
            route = re.split(r"[\\^$(\[?*+.]", route.lstrip("^"), maxsplit=1)[0]
        literal = prefix + route.split("<", 1)[0]
        if isinstance(entry, URLResolver):
            yield from _route_prefixes(entry.url_patterns, literal)
        elif isinstance(entry, URLPattern):
            view = getattr(entry.callback, "view_class", entry.callback)
            yield "/" + literal, view.__module__


def app_and_other_paths() -> tuple[set[str], set[str]]:
    """The literal path starts of the apps' URLs, and of everyone else's (core, config,
    Django's admin, allauth)."""
    ours, others = set(), set()
    for literal, module in _route_prefixes(get_resolver().url_patterns):
        config = apps.get_containing_app_config(module)
        (ours if config is not None and config.name in PROJECT_APPS else others).add(literal)
    return ours - {"/"}, others


def app_paths_named(source: str, ours: set[str], others: set[str]) -> list[str]:
    """The paths in ``source``'s strings that belong to an app: a path some app URL starts
    with (and no URL of anyone else), or a path inside an app's URL."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        for path in PATH.findall(node.value):
            starts_app_urls = any(url.startswith(path) for url in ours)
            starts_other_urls = any(url.startswith(path) for url in others)
            inside_app_url = any(path.startswith(url) for url in ours)
            if (starts_app_urls and not starts_other_urls) or inside_app_url:
                found.append((node.lineno, path))
    return [f"{line}: {path}" for line, path in sorted(found)]


def test_the_guard_recognises_an_apps_path_in_full():
    ours, others = app_and_other_paths()
    source = 'PRIVATE = ("/admin/", "/api/", "/donate/manage/", "/healthz")\nNAV = "/about/"'
    assert app_paths_named(source, ours, others) == ["1: /donate/manage/", "2: /about/"]
    assert app_paths_named('"/stripe/"  # and "https://example.org/about/"', ours, others) == [
        "1: /stripe/"
    ]


def test_core_names_no_url_path_of_an_app():
    ours, others = app_and_other_paths()
    assert {"/donate/manage/", "/stripe/webhook/", "/about/"} <= ours  # the walk found them
    named = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "core").rglob("*.py"))
        for line in app_paths_named(path.read_text(), ours, others)
    ]
    assert named == [], named


MENU = [
    ("Foundation", "/about/"),
    ("News", "/news/"),
    ("Supporters", "/supporters/"),
    ("Download", "/download/"),
    ("Security", "/security/"),
    ("Usage statistics", "/feedback/"),
    ("Benchmarks", "/benchmarks/"),
    ("Donate", "/donate/"),
]


def test_the_menu_shows_each_apps_entry_in_order_and_marks_the_current_page():
    response = Client().get("/download/")
    assert response.status_code == 200
    current = ' aria-current="page"'
    items = "".join(
        f'<li><a href="{url}"{current if url == "/download/" else ""}>{label}</a></li>'
        for label, url in MENU
    )
    nav = re.search(r'<nav id="site-nav".*?<ul>(.*?)</ul>', response.content.decode(), re.S)
    assert parse_html(nav.group(1)) == parse_html(items)
    for _, url in MENU:  # each entry leads to a page
        assert Client().get(url).status_code == 200, url


def test_the_menu_is_on_the_outage_page_too():
    page = database_unavailable_response("/benchmarks/x/").content.decode()
    assert '<a href="/benchmarks/" aria-current="page">Benchmarks</a>' in page
    assert '<a href="/donate/">Donate</a>' in page


def private_pages() -> dict[str, str]:
    """A page under each path prefix an app keeps out of the page cache."""
    gift = GiftFactory()
    return {
        "/stripe/": "/stripe/webhook/",
        "/rest/": "/rest/v1/post",
        "/feedback_plugin/": "/feedback_plugin/post",
        "/donate/manage/": f"/donate/manage/{manage_token(gift.donation.reference)}/",
        "/donate/my-gifts/": "/donate/my-gifts/",
    }


def test_pages_under_the_paths_apps_keep_private_are_never_stored():
    core_own = {"/admin/", "/accounts/", "/api/", "/healthz"}
    pages = private_pages()
    # The API prefixes apps register are private too; their answers are shared instead.
    assert set(pagecache.api_path_prefixes()) - core_own == {"/rest-api/"}
    private = set(pagecache.private_path_prefixes()) - set(pagecache.api_path_prefixes())
    assert private - core_own == set(pages)
    for prefix, page in pages.items():
        first, second = Client().get(page), Client().get(page)
        for response in (first, second):
            assert response.get(HIT_HEADER) is None, (prefix, page, response.status_code)
    # The donor's own page, reached by the link in a receipt, is a full page: it would be
    # shared with the next visitor if donations had not kept its path private.
    manage = Client().get(pages["/donate/manage/"])
    assert manage.status_code == 200 and "€25, one-off" in manage.content.decode()
    assert "public" not in manage.get("Cache-Control", "")


def test_apps_register_their_secrets_and_settings_declares_each_one(settings):
    names = [secret.name for secret in site_secrets.registered()]
    assert names == ["SECRET_KEY", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]
    for name in names:
        assert isinstance(getattr(settings, name), str)
    # payments' rule: a Stripe test key needs STRIPE_TEST_MODE in production.
    test_key = {**PRODUCTION_ENV, "STRIPE_SECRET_KEY": "sk_test_T4mQ9xVb2LzR7nKc5WdH8pJs"}
    assert site_secrets.refused_secrets({**test_key, "STRIPE_TEST_MODE": True}) == []
    [problem] = site_secrets.refused_secrets({**test_key, "STRIPE_TEST_MODE": False})
    assert problem.startswith("STRIPE_SECRET_KEY is a Stripe test key")


def test_paths_apps_register_have_their_secret_segment_redacted():
    assert logredact.redact("GET /sponsors/invitations/tok3n/ 200") == (
        "GET /sponsors/invitations/[redacted]/ 200"
    )
    assert logredact.redact("/accounts/login/?next=%2Fsponsors%2Finvitations%2Ftok3n%2F") == (
        "/accounts/login/?next=%2Fsponsors%2Finvitations%2F[redacted]%2F"
    )


def app_secrets_named(source: str) -> list[str]:
    """The strings in ``source`` that name an app's secret or say what its values look like."""
    words = set()
    for secret in site_secrets.registered():
        if secret is not site_secrets.DJANGO_SECRET_KEY:
            words |= {secret.name, secret.development_default, *secret.prefixes, *secret.published}
    return sorted(
        f"{node.lineno}: {node.value}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(word in node.value for word in words)
    )


def test_core_names_no_secret_of_an_app():
    named = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "core").rglob("*.py"))
        for line in app_secrets_named(path.read_text())
    ]
    assert named == [], named
