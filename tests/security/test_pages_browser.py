"""The security pages (and the release pages' security sections) reflow at phone widths
and pass axe-core in the light and dark schemes; screenshots at 320 and 390 px."""

import pytest

from tests.artifacts import ARTIFACTS
from tests.e2e.page_audit import audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = {
    "list": "/security/",
    "list-filtered": "/security/?series=10.6&severity=HIGH",
    "advisory": "/security/CVE-2026-44171/",
    "advisory-no-vector": "/security/CVE-2026-44170/",
    "affected": "/security/affected/?version=10.5.20-MariaDB-1:10.5.20%2Bmaria~ubu2004",
    "affected-error": "/security/affected/?version=MariaDB+10.6",
    "release": "/download/10.6/10.6.25/",
    "series": "/download/10.4/",
}


def test_security_pages_reflow_and_pass_axe(live_server, browser, demo_content_committed):
    """On the demo content, which holds every real release and advisory."""
    ARTIFACTS.mkdir(exist_ok=True)
    overflowing, violations = [], []
    for width in (320, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            for name, url in PAGES.items():
                page.goto(live_server.url + url)
                found, blocking, _ = audit(
                    page, url, width, screenshot=str(ARTIFACTS / f"security-{name}")
                )
                overflowing += found
                if name in ("release", "series"):  # the section sits below the fold
                    for scheme in ("light", "dark"):
                        page.emulate_media(color_scheme=scheme)
                        page.locator("#security").screenshot(
                            path=str(ARTIFACTS / f"security-{name}-section-{width}-{scheme}.png")
                        )
                violations += blocking
        finally:
            context.close()
    assert not overflowing, overflowing
    assert not violations, violations
