"""The apps register what their public pages show (core names none of them), and the
registration is complete: every table a public page reads belongs to a model whose saves
purge the edge, and saving any watched model does record one purge in the outbox."""

import ast
import contextlib
import importlib
import inspect
import re
from pathlib import Path

import factory.django
import pytest
from django.apps import apps
from django.db import connection
from django.db.models.signals import post_save
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from core import demo, edge
from core import sitemaps as site_map
from feedback.trends.models import Snapshot
from outbox.apps import EDGE_PURGE
from outbox.models import OutboxItem
from tests.e2e.sitemap_pages import every_kind, listed_paths
from tests.project import project_app_configs

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
PROJECT_APPS = [config for config in project_app_configs() if config.label != "core"]
# Pages no sitemap lists that the edge still keeps for anonymous visitors.
UNLISTED_PUBLIC_PAGES = ["/search/?q=mariadb", "/search/?q=board", "/opensearch.xml"]
SAMPLED_PER_ROUTE = 20
TABLE = re.compile(r'(?:FROM|JOIN)\s+"([^"]+)"')
# Tables public pages read that are deliberately not watched, and why that is safe.
NOT_WATCHED = {
    # Rollups are written in bulk; their RollupState row is saved in the same transaction.
    "trends.rollup",
    # The Sites framework's row changes only with SITE_URL, at migrate (core.sites).
    "sites.site",
    # Content types (the payments ledger's generic links) change only at migrate; Django
    # keeps them in process memory, so whether a page reads the table depends on what ran
    # before in the same process.
    "contenttypes.contenttype",
    # Joined to reach a commenter's profile; only the profile's display name is shown
    # (core.public_name), and core.Profile is watched.
    "auth.user",
}


def table_owners() -> dict[str, str]:
    """Each table's model label; a many-to-many table belongs to the model declaring it."""
    owners = {}
    for model in apps.get_models(include_auto_created=True):
        owners[model._meta.db_table] = model._meta.label_lower
        for field in model._meta.local_many_to_many:
            owners[field.remote_field.through._meta.db_table] = model._meta.label_lower
    return owners


def tables_read(client, path) -> set[str]:
    # Django keeps the last 9000 queries only: once a walk has made more, a capture of the
    # next page would see none of its queries unless the log is emptied first.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return {table for query in queries.captured_queries for table in TABLE.findall(query["sql"])}


def factories_by_model() -> dict[type, type]:
    """Every factory_boy factory of the test packages, by the model it makes."""
    found = {}
    for path in sorted(TESTS.rglob("factories.py")):
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for _, member in inspect.getmembers(module, inspect.isclass):
            if issubclass(member, factory.django.DjangoModelFactory) and member._meta.model:
                found.setdefault(member._meta.model, member)
    return found


@pytest.fixture(scope="module")
def demo_content(demo_database):
    """The demo content, loaded and committed (its on-commit work done) once per test
    process (tests/shared_data.py)."""
    with demo_database.in_use():
        yield


@pytest.mark.usefixtures("demo_content")
def test_public_pages_read_only_watched_models_and_saving_any_of_them_purges_the_edge(
    settings,
):
    """Every table a public page reads belongs to a watched model; then, on the same
    content (one demo load for both halves: it is the suite's slowest step), saving any
    watched model records a purge of the edge in its transaction."""
    watched = {model._meta.label_lower for model in edge.watched_models()}
    owners = table_owners()
    client = Client()
    read_by: dict[str, str] = {}
    with override_settings(PAGE_CACHE_TIMEOUT=0):  # build every page: a stored one reads nothing
        listed = listed_paths(client)
        assert len(listed) > 1000  # the demo content is there
        # Pages of one route read the same tables: every route, and of the routes with
        # hundreds of pages (releases, news) a spread of them (the walk of every sitemap
        # URL is tests/e2e/test_every_page_reflows_and_passes_axe.py's).
        paths = every_kind(listed, spread=SAMPLED_PER_ROUTE)
        for path in [*paths, *UNLISTED_PUBLIC_PAGES]:
            for table in tables_read(client, path):
                read_by.setdefault(owners.get(table, table), path)
    unwatched = {
        label: path
        for label, path in read_by.items()
        if label not in watched and label not in NOT_WATCHED
    }
    assert unwatched == {}, f"public pages read models whose saves purge nothing: {unwatched}"
    # The walk saw the content of every app that watches models.
    assert {label.split(".")[0] for label in read_by} >= {
        label.split(".")[0] for label in watched
    } - {"benefits"}  # benefits are shown to their sponsor only, never on a shared page

    # Saving: a real save of a demo row (or of one a factory makes); a model with
    # neither gets the signal its save would send.
    makers = factories_by_model()
    settings.EDGE_PURGE_URLS = ["http://127.0.0.1:9/purge"]
    kept, saved = [], 0
    for model in sorted(edge.watched_models(), key=lambda m: m._meta.label_lower):
        instance = model.objects.first()
        if instance is None and model in makers:
            with own_transaction():
                instance = makers[model]()
        before = OutboxItem.objects.filter(kind=EDGE_PURGE).count()
        with own_transaction():
            save(model, instance)
        if OutboxItem.objects.filter(kind=EDGE_PURGE).count() == before:
            kept.append(model._meta.label)
        saved += instance is not None and model is not Snapshot
    assert kept == [], f"saved, yet no purge of the edge was recorded: {kept}"
    assert saved >= 20  # most of them by a real save


@contextlib.contextmanager
def own_transaction():
    """As if what happens inside were a transaction of its own, committed: the test's one
    transaction would otherwise keep the first purge's marker in its on-commit list."""
    start = len(connection.run_on_commit)
    yield
    del connection.run_on_commit[start:]


def save(model, instance):
    if instance is None or model is Snapshot:  # a published snapshot never changes
        post_save.send(sender=model, instance=instance or model(), created=False, raw=False)
    else:
        instance.save()


def test_every_app_registers_itself_and_core_names_none():
    sections = site_map.sections()
    assert next(iter(sections)) == "site"
    demo_modules = demo.ordered()
    assert demo_modules[-1] == "search.demo"  # indexes what the others created
    assert demo_modules.index("foundation.demo") < demo_modules.index("releases.demo")
    for config in PROJECT_APPS:
        if Path(config.path, "demo.py").exists():
            assert f"{config.name}.demo" in demo_modules, config.name
        if Path(config.path, "sitemaps.py").exists():
            module = importlib.import_module(f"{config.name}.sitemaps")
            assert any(s in vars(module).values() for s in sections.values()), config.name
    app_names = {config.name.split(".")[0] for config in PROJECT_APPS}
    app_names |= {config.label for config in PROJECT_APPS}
    named = []
    for path in (ROOT / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                word = re.split(r"[.:/]", node.value)[0]
                if word in app_names and node.value not in {"core"}:
                    named.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert named == [], named
