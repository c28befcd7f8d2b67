"""The public money pages with the demo loaded (and a named donor, an expense, and the
confirmation of a logo removal): reflow at 320 and 390 px and no serious axe finding at
320 px, in light and dark (tests/e2e/page_audit.py)."""

from decimal import Decimal

import pytest
from django.core.files.base import ContentFile
from django.test import Client
from django.utils import timezone

from sponsors import demo as sponsors_demo
from sponsors.models import Tier
from tests.artifacts import ARTIFACTS
from tests.donations.factories import ExpenseFactory, GiftFactory
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit
from tests.sponsors.factories import OrganisationFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_money_pages_reflow_and_pass_axe(live_server, browser, settings, tmp_path, localstripe_url):
    settings.MEDIA_ROOT = tmp_path
    # The donate page audited with the card field the fake's Stripe.js draws.
    settings.STRIPE_JS_URL = f"{localstripe_url}/js.stripe.com/v3/"
    sponsors_demo.load(lambda message: None)
    GiftFactory(donation__public_name="Grace H.", donation__show_on_wall=True)
    ExpenseFactory(spent_on=timezone.localdate(), amount=Decimal("1200"))
    gold = Tier.objects.get(slug="gold")
    organisation = OrganisationFactory(name="Aurora Relational Systems Oy")
    organisation.logo.save("a.svg", ContentFile(b"<svg xmlns='http://www.w3.org/2000/svg'/>"))
    client = Client()
    client.force_login(organisation.managers.get())
    public = ["/donate/", "/funding/", "/supporters/", "/sponsors/", f"/sponsors/apply/{gold.pk}/"]
    signed_in = [f"/sponsors/organisations/{organisation.pk}/logo/remove/"]
    ARTIFACTS.mkdir(exist_ok=True)
    overflowing, violations, runs = [], [], 0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in [*public, None, *signed_in]:
            if path is None:
                context.add_cookies(
                    [
                        {
                            "name": "sessionid",
                            "value": client.cookies["sessionid"].value,
                            "url": live_server.url,
                        }
                    ]
                )
                continue
            response = page.goto(live_server.url + path, wait_until="load")
            assert response is not None and response.status == 200, path
            shot = str(ARTIFACTS / f"money{path.replace('/', '-')}".rstrip("-"))
            wide, blocking, count = audit(page, path, width, screenshot=shot)
            overflowing += wide
            violations += blocking
            runs += count
        context.close()
    assert runs == len(SCHEMES) * (len(public) + len(signed_in))  # axe at AXE_WIDTH
    # Each tier's wordmarks are set in a size of their own, largest for the highest tier,
    # on the supporters page and on the home page's strip.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    for path, tiers in (("/supporters/", "Platinum Gold"), ("/", "Platinum Gold")):
        page.goto(live_server.url + path)
        sizes = page.eval_on_selector_all(
            ".wordmark", "marks => marks.map(m => parseFloat(getComputedStyle(m).fontSize))"
        )
        distinct = sorted(set(sizes), reverse=True)
        assert len(distinct) == len(tiers.split()), (path, sizes)
        assert distinct[0] >= 1.25 * distinct[1], (path, sizes)
    context.close()
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
