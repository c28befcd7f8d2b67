"""No Content-Security-Policy violation in Chromium on staff's pages (the public pages are
checked by the walk of every page, tests/e2e/test_every_page_reflows_and_passes_axe.py):
the browser's console and securitypolicyviolation events are watched."""

import pytest

from tests.e2e.page_audit import LISTEN_FOR_CSP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_admin_pages_run_without_csp_violations(live_server, page, django_user_model):
    from django_celery_beat.models import CrontabSchedule

    CrontabSchedule.objects.get_or_create(minute="0", hour="4")
    django_user_model.objects.create_superuser("staff", "staff@example.org", "a-long-Passphrase-42")
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{page.url}: {message.text}"))
    page.add_init_script(LISTEN_FOR_CSP)
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "staff")
    page.fill("#id_password", "a-long-Passphrase-42")
    page.click("input[type=submit]")
    violations = []
    for path in ["/admin/", "/admin/foundation/newspost/add/", "/admin/sponsors/organisation/",
                 "/admin/django_celery_beat/periodictask/add/"]:  # fmt: skip
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        violations += [f"{path}: {v}" for v in page.evaluate("window.__csp")]
    # The periodic task form's crontab help (a static script instead of an inline one).
    page.select_option("#id_crontab", index=1)
    assert "Translation:" in page.locator(".field-crontab .help").inner_text()
    csp_console = [line for line in console if "Content Security Policy" in line]
    assert violations == [] and csp_console == [], violations + csp_console
