"""Core knows no app by its URLs: the apps tell it what it must know (the pages never
cached, the menu, the paths whose secrets the logs hide, the secrets production judges)
from their ``AppConfig.ready()``, and what they told it still works."""

import ast
import importlib
import re
import secrets
from pathlib import Path

import pytest
from django.apps import apps
from django.test import Client
from django.test.html import parse_html
from django.urls import URLPattern, URLResolver, get_resolver
from pytest_django.asserts import assertContains

from core import edge, logredact
from core import secrets as site_secrets
from core.outage import database_unavailable_response
from donations.services import recording as gift_recording
from donations.signing import manage_token
from invoicing.links import public_url
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
    receipt = gift_recording.documents.issue_receipt(gift)
    return {
        "/documents/": public_url(receipt),
        "/stripe/": "/stripe/webhook/",
        "/rest/": "/rest/v1/post",
        "/feedback_plugin/": "/feedback_plugin/post",
        "/donate/manage/": f"/donate/manage/{manage_token(gift.donation.reference)}/",
        "/donate/my-gifts/": "/donate/my-gifts/",
    }


def test_pages_under_the_paths_apps_keep_private_are_never_shared():
    core_own = {"/admin/", "/accounts/", "/api/", "/healthz"}
    pages = private_pages()
    # The API prefixes apps register are private too; their answers are shared instead.
    assert set(edge.api_path_prefixes()) - core_own == {"/rest-api/"}
    private = set(edge.private_path_prefixes()) - set(edge.api_path_prefixes())
    assert private - core_own == set(pages)
    for prefix, page in pages.items():
        response = Client().get(page)
        cache_control = response.get("Cache-Control", "")
        assert "public" not in cache_control, (prefix, page, response.status_code)
        assert "s-maxage" not in cache_control, (prefix, page, response.status_code)
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
    test_key = {**PRODUCTION_ENV, "STRIPE_SECRET_KEY": "sk_test_" + secrets.token_urlsafe(24)}
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


# Core's templates: the shared pages (base, home, errors, profile) name no app's URL and
# load no app's tag library; what they show of the apps, the apps register (core.navigation).
CORE_TEMPLATES = ROOT / "templates"
URL_TAG = re.compile(r"""{%\s*url\s+["']([\w-]+):""")
LOAD_TAG = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")
TEMPLATE_PATH = re.compile(r"""(?:href|action|src)=["'](/[^"'{]*)""")


def app_url_namespaces() -> set[str]:
    names = set()
    for config in project_app_configs():
        if config.name == "core":
            continue
        try:
            urls = importlib.import_module(f"{config.name}.urls")
        except ModuleNotFoundError:
            continue
        names.add(getattr(urls, "app_name", config.label))
    return names


def app_tag_libraries() -> set[str]:
    return {
        path.stem
        for config in project_app_configs()
        if config.name != "core"
        for path in (Path(config.path) / "templatetags").glob("*.py")
        if path.stem != "__init__"
    }


def app_names_in_template(text: str, ours: set[str], others: set[str]) -> list[str]:
    """The app URL names, app paths and app tag libraries a template's text names."""
    namespaces, libraries = app_url_namespaces(), app_tag_libraries()
    found = [f"url {name}:" for name in URL_TAG.findall(text) if name in namespaces]
    for loaded in LOAD_TAG.findall(text):
        found += [f"load {name}" for name in loaded.split() if name in libraries]
    for path in TEMPLATE_PATH.findall(text):
        starts_app_urls = any(url.startswith(path) for url in ours)
        starts_other_urls = any(url.startswith(path) for url in others)
        if (starts_app_urls and not starts_other_urls) or any(path.startswith(u) for u in ours):
            found.append(path)
    return found


def test_the_template_guard_recognises_an_apps_url_path_and_tag_library():
    ours, others = app_and_other_paths()
    text = """{% load static foundation_tags %}<a href="/about/board/">Board</a>
    <a href="{% url 'donations:mine' %}">Gifts</a><a href="/">Home</a>
    <a href="{% url 'accessibility' %}">Accessibility</a><a href="/accounts/login/">In</a>"""
    assert app_names_in_template(text, ours, others) == [
        "url donations:",
        "load foundation_tags",
        "/about/board/",
    ]


def test_cores_templates_name_no_app_url_or_tag_library():
    ours, others = app_and_other_paths()
    named = {
        str(path.relative_to(ROOT)): found
        for path in sorted(CORE_TEMPLATES.rglob("*.html"))
        if (found := app_names_in_template(path.read_text(), ours, others))
    }
    assert named == {}, named


FOOTER = {
    "Foundation": [
        ("About", "/about/"),
        ("Board", "/about/board/"),
        ("Staff", "/about/staff/"),
        ("Governance", "/about/governance/"),
        ("Contact", "/contact/"),
    ],
    "Support us": [
        ("Supporters", "/supporters/"),
        ("Become a sponsor or member", "/sponsors/"),
        ("Donate", "/donate/"),
        ("Where the money comes from", "/funding/"),
    ],
    "Software": [
        ("Download MariaDB", "/download/"),
        ("Repository configuration", "/download/repo-config/"),
        ("Usage statistics", "/feedback/"),
        ("Benchmarks", "/benchmarks/"),
    ],
    "This site": [
        ("News feed (Atom)", "/news/feed/"),
        ("Accessibility", "/accessibility/"),
        ("Privacy of usage reports", "/feedback/privacy/"),
        ("API schema", "/api/schema/"),
    ],
}


def footer_sections(html: str) -> dict[str, list[tuple[str, str]]]:
    footer = re.search(r'<footer class="site-footer">(.*?)</footer>', html, re.S).group(1)
    sections = {}
    for heading, links in re.findall(
        r"<h2 id=\"[\w-]+\">(.*?)</h2>\s*<ul>(.*?)</ul>", footer, re.S
    ):
        sections[heading] = [
            (label, url) for url, label in re.findall(r'<a href="([^"]+)">([^<]+)</a>', links)
        ]
    return sections


def test_every_page_shows_the_footer_links_the_apps_register_in_their_sections(client):
    for page in ("/", "/donate/"):
        assert footer_sections(client.get(page).content.decode()) == FOOTER, page
    page = database_unavailable_response("/about/").content.decode()
    assert footer_sections(page) == FOOTER  # reversed without a database


def test_the_home_page_shows_the_section_of_each_app_that_registers_one(client):
    html = client.get("/").content.decode()
    hero = re.search(r'<p class="hero-actions">(.*?)</p>', html, re.S).group(1)
    assert parse_html(hero) == parse_html(
        '<a class="button" href="/download/">Download MariaDB</a>'
        '<a class="button button-secondary" href="/supporters/">Support the foundation</a>'
    )
    highlights = re.findall(r"<li><a href=\"([^\"]+)\"><strong>([^<]+)</strong>", html)
    assert highlights == [
        ("/download/repo-config/", "Repository setup"),
        ("/feedback/", "Usage statistics"),
        ("/benchmarks/", "Benchmarks"),
    ]
    headings = re.findall(r'<h2 id="(home-[\w-]+)">([^<]+)</h2>', html)
    assert headings == [
        ("home-news", "Latest news"),  # foundation's column
        ("home-releases", "Latest releases"),  # releases' column
        ("home-sponsors", "Thank you to our sponsors"),  # sponsors' band, after the columns
    ]
    assert html.index('class="container home-grid"') < html.index('class="home-news"')
    assert html.index('class="home-releases"') < html.index('class="sponsor-band"')
    assertContains(
        client.get("/"),
        '<link rel="alternate" type="application/atom+xml" title="MariaDB Foundation news"'
        ' href="/news/feed/">',
        html=True,
    )


def test_signed_in_visitors_see_the_account_links_apps_register(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("ada", "ada@example.org", "x"))
    html = client.get("/").content.decode()
    account = re.search(r'<ul class="account-nav">(.*?)</ul>', html, re.S).group(1)
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', account)
    assert links[1:4] == [
        ("/sponsors/dashboard/", "My organisation"),
        ("/donate/my-gifts/", "My gifts"),
        ("/accounts/benchmarks/", "My benchmarks"),
    ]
    profile = client.get("/accounts/profile/")
    assertContains(
        profile, '<a href="/accounts/benchmarks/">your benchmark submissions</a>', html=True
    )


def test_the_404_page_offers_the_search_that_search_registers(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assertContains(
        response,
        '<input type="search" id="not-found-q" name="q" value="no such page" maxlength="200">',
        html=True,
        status_code=404,
    )


def test_the_accessibility_statement_sends_visitors_to_the_contact_page_registered(client):
    assertContains(client.get("/accessibility/"), '<a href="/contact/">tell us</a>', html=True)
