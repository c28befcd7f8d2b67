"""What a person sees of issue 48 in a browser: the invoice page the billing contact's
signed link opens (no account), /funding/ with the demo's year of money, and /donate/ with
the goal: reflow at 320 and 390 px and no serious axe finding, light and dark; the
screenshots of docs/sponsors.md and docs/donations.md at 1280 and 390 px."""

from decimal import Decimal

import pytest
from django.utils import timezone

from donations import demo as donations_demo
from invoicing.links import public_url
from sponsors import demo as sponsors_demo
from sponsors import documents
from sponsors.benefits import demo as benefits_demo
from sponsors.models import Sponsorship
from tests.artifacts import ARTIFACTS
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOCS_IMG = ARTIFACTS / "docs-img"


def test_invoice_page_funding_and_goal_reflow_pass_axe_and_are_pictured(live_server, browser):
    quiet = lambda message: None  # noqa: E731
    sponsors_demo.load(quiet)
    benefits_demo.load(quiet)
    donations_demo.load(quiet)
    organisation = OrganisationFactory(
        name="Beispiel GmbH",
        billing_name="Beispiel GmbH, Buchhaltung",
        billing_address="Musterstraße 1\n10115 Berlin",
        billing_country="DE",
        vat_id="DE123456789",
    )
    sponsorship = Sponsorship.objects.create(
        organisation=organisation,
        tier=(tier := TierFactory()),
        terms=tier.terms(),
        status=Sponsorship.Status.AWAITING_PAYMENT,
        payment_method=Sponsorship.Payment.INVOICE,
    )
    invoice = documents.issue_invoice(
        sponsorship,
        stripe_invoice_id="in_demo",
        due_on=timezone.localdate() + timezone.timedelta(days=30),
        hosted_url="",
        term=None,  # the first term: one year from the day the fee is paid
    )
    assert invoice.total == Decimal("50000")
    invoice_path = public_url(invoice).split("://", 1)[1].split("/", 1)[1]
    pages = {"invoice": f"/{invoice_path}", "funding": "/funding/", "donate": "/donate/"}
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    overflowing, violations, runs = [], [], 0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for name, path in pages.items():
            response = page.goto(live_server.url + path, wait_until="load")
            assert response is not None and response.status == 200, path
            wide, blocking, count = audit(page, name, width, screenshot=str(ARTIFACTS / name))
            overflowing += wide
            violations += blocking
            runs += count
        context.close()
    assert runs == len(SCHEMES) * len(pages)
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        for name, path in pages.items():
            page.goto(live_server.url + path, wait_until="networkidle")
            if name == "invoice":
                assert page.get_by_text(f"quoting the reference {invoice.number}").is_visible()
            page.screenshot(path=str(DOCS_IMG / f"money-{name}-{width}.png"), full_page=True)
        context.close()
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
