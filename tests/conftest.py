"""Fixtures shared by every test package.

Browser tests use Debian's Chromium through Playwright (no browser download);
they are marked ``browser`` and need the ``live_server`` of pytest-django.

The browser is Chromium's headless shell (Debian's ``chromium-headless-shell``, the same
Blink and V8 as ``chromium``), which is what Playwright itself runs for headless tests:
``chromium --headless`` starts the whole browser without its windows and took twice the
CPU for the same pages (docs/testing.md, 2026-11-26, late evening).
"""

import os
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.db import connection
from django.test.utils import setup_databases, teardown_databases
from pytest_django import fixtures as pytest_django_fixtures
from pytest_django.plugin import blocking_manager_key

from tests import beat, databases, shared_data
from tests.artifacts import ARTIFACTS
from tests.broker import publishing_to
from tests.e2e import devstack as devstack_harness
from tests.localstripe import start_localstripe
from tests.shared_data import DemoDatabase, group_upload_roots

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    """Uploads go to folders of the test's own, or of its group (tests/shared_data.py)."""
    roots = group_upload_roots() or (tmp_path / "media", tmp_path / "private-media")
    settings.MEDIA_ROOT, settings.PRIVATE_MEDIA_ROOT = roots


@pytest.fixture(autouse=True)
def _frozen_ratelimit_clock(monkeypatch):
    """django-ratelimit counts in fixed windows: a slow run must not cross into the next
    one halfway through a test and find its counter reset."""
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9))


@pytest.fixture(autouse=True)
def _clear_cache(monkeypatch):
    from django.contrib.contenttypes.models import ContentType
    from django.core.cache import cache

    import core.cache
    import core.enqueue

    # A Redis that was slow in an earlier test is not skipped in this one, nor a broker.
    monkeypatch.setattr(core.cache, "_breakers", {})
    monkeypatch.setattr(core.enqueue, "BROKER_BREAKER", core.enqueue.BrokerBreaker())
    # Content type ids are cached per process: a transactional test's flush, or a test
    # pointed at another database (the demo's), leaves ids this test's database lacks.
    ContentType.objects.clear_cache()
    cache.clear()
    yield


@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
    tmp_path_factory,
):
    """Each pytest-xdist worker's test database, a copy of one the first worker migrated
    (tests/databases.py), instead of each running every migration; otherwise
    pytest-django's own way (the same calls as its fixture of this name)."""
    verbosity = request.config.option.verbose
    if databases.from_template_applies(request.config):
        shared_folder = tmp_path_factory.getbasetemp().parent  # the controller's basetemp
        with django_db_blocker.unblock():
            old_config = databases.worker_database_from_template(shared_folder, verbosity)
            beat.take_snapshot()
        yield
        with django_db_blocker.unblock():
            teardown_databases(old_config, verbosity=verbosity)
        return
    if not django_db_use_migrations:
        pytest_django_fixtures._disable_migrations()
    aliases, serialized_aliases = pytest_django_fixtures._get_databases_for_setup(
        request.session.items
    )
    with django_db_blocker.unblock():
        old_config = setup_databases(
            verbosity=verbosity,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
            keepdb=django_db_keepdb and not django_db_createdb,
        )
        beat.take_snapshot()
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            teardown_databases(old_config, verbosity=verbosity)


@pytest.fixture
def beat_schedules(db):
    """The schedules the migrations stored, even after a transactional test emptied them."""
    beat.restore_if_emptied()


@pytest.fixture(scope="session")
def demo_database(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo content, loaded once per test process into a database of its own, for
    groups of tests that only read it (tests/shared_data.py): ``with
    demo_database.in_use(): ...`` in a module- or class-scoped fixture."""
    parallel = shared_data.worker() and connection.vendor == "postgresql"
    shared_folder = tmp_path_factory.getbasetemp().parent if parallel else None
    database = DemoDatabase(django_db_blocker, shared_folder)
    yield database
    database.drop()


@pytest.fixture
def demo_content_committed(demo_database):
    """The demo content, committed, in a copy of the demo database of this test's own
    (tests/shared_data.py), for a test with a live server: as if it ran load_demo."""
    with demo_database.copy_in_use():
        yield


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot(page):
    """Save a screenshot under test-artifacts/ for a human to look at."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(name, **kwargs):
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), **kwargs)
        return path

    return take


@pytest.fixture(scope="session")
def localstripe_url(tmp_path_factory):
    """A real stateful Stripe fake (localstripe) for the card flow."""
    process, url = start_localstripe(tmp_path_factory.mktemp("localstripe") / "log")
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def fake_stripe(settings, localstripe_url):
    settings.STRIPE_API_BASE = localstripe_url
    return localstripe_url


@pytest.fixture
def broker(tmp_path):
    """Celery publishing to a redis-server of this test, which the test may stop and start
    (tests/broker.py)."""
    with publishing_to(tmp_path) as server:
        yield server


@pytest.fixture(scope="session")
def invoicing_localstripe_url(tmp_path_factory):
    """localstripe as `make run` starts it: with scripts/localstripe_invoicing.py, which also
    issues one-off invoices."""
    process, url = start_localstripe(
        tmp_path_factory.mktemp("localstripe-invoicing") / "log", invoicing=True
    )
    yield url
    process.terminate()
    process.wait(10)


# The longest tests, longest first (`--durations`; the real mariadbd mostly waits on its
# clock): each starts first among the tests of its kind instead of wherever its file
# falls, since one that starts late keeps its worker busy alone at the end of the run.
START_FIRST = (
    "tests/e2e/test_every_page_reflows_and_passes_axe.py",
    "tests/feedback/test_real_mariadb.py",
    "tests/core/test_hostile_urls.py::TestOnTheDemoSite",
    "tests/security/test_pages_browser.py",
    "tests/invoicing/test_money_documents_browser.py",
    "tests/e2e/test_devstack_supervisor.py",
    "tests/e2e/test_account_pages_reflow_and_pass_axe.py",
)


@pytest.hookimpl(tryfirst=True)
def pytest_report_header(config):
    """The day the run takes as today (``TEST_TODAY``, scripts/test_clock.py)."""
    from datetime import UTC, datetime

    moved = " (TEST_TODAY)" if os.environ.get("TEST_TODAY") else ""
    return f"today: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC{moved}"


def pytest_collection_modifyitems(items):
    """START_FIRST to the front. pytest-django's own reordering runs after this one (both
    run first; a conftest's before a plugin's) and sorts stably by kind, as Django does:
    tests in a transaction, then transactional ones (whose flush empties the tables the
    others expect the migrations to have filled), then those without a database. So the
    long tests lead their kind and never run before a test of an earlier kind."""
    rank = {prefix: index for index, prefix in enumerate(START_FIRST)}

    def first_rank(item):
        return next((rank[p] for p in START_FIRST if item.nodeid.startswith(p)), len(rank))

    items.sort(key=first_rank)


def pytest_collection_finish(session):
    """When the run has devstack tests, the first worker done collecting starts the shared
    stack in the background (``devstack`` below), so no worker sits waiting for it."""
    if session.config.option.collectonly:
        return
    if any("devstack" in getattr(item, "fixturenames", ()) for item in session.items):
        devstack_harness.prestart(session.config._tmp_path_factory.getbasetemp())


def pytest_sessionfinish(session):
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller, or a serial run
        devstack_harness.stop_left_over(session.config._tmp_path_factory.getbasetemp())
        with session.config.stash[blocking_manager_key].unblock():
            databases.drop_template(session.config._tmp_path_factory.getbasetemp())
            shared_data.drop_shared_demo(session.config._tmp_path_factory.getbasetemp())


@pytest.fixture(scope="session")
def devstack(tmp_path_factory):
    """The whole system as `make run` starts it (tests/e2e/devstack.py), one for the run,
    shared by the pytest-xdist workers."""
    with devstack_harness.shared(tmp_path_factory.getbasetemp()) as stack:
        yield stack
