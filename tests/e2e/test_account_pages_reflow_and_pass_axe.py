"""The pages no sitemap lists reflow on a phone and pass axe-core too.

The sitemap walk (test_every_page_reflows_and_passes_axe.py) sees what the public sees.
This walk covers the rest of what a person does on a phone: signing in and up, asking
for a lost donation link, the pages a release mail's confirm and unsubscribe links open,
and, signed in as a sponsor's manager who also gave a gift,
the account pages, the sponsor dashboard, the organisation with its profile form, the
benefits of a sponsorship, an application and its payment page, the renewal of a card
payer (by card) and of an invoice payer with an invoice open, and "my gifts". Same
checks: reflow at 320 and 390 px, axe at 320 px in light and dark (tests/e2e/page_audit.py).
"""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from donations.models import Donation
from releases.models import AnnouncementSubscriber
from releases.subscriptions import confirm_token, unsubscribe_token
from sponsors import documents
from sponsors.benefits.models import Benefit
from sponsors.models import Sponsorship
from sponsors.services import applications
from sponsors.terms import Term
from tests.artifacts import ARTIFACTS
from tests.donations.factories import DonationFactory, GiftFactory
from tests.e2e.page_audit import SCHEMES, WIDTHS, audit
from tests.sponsors.benefits.factories import BenefitFactory, SponsorshipFactory
from tests.sponsors.factories import ActiveSponsorshipFactory, OrganisationFactory, TierFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANONYMOUS = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/donate/manage/",
]


@pytest.fixture
def mail_link_pages():
    subscriber = AnnouncementSubscriber.objects.create(email="dba@example.org")
    return [
        f"/download/subscribe/confirm/{confirm_token(subscriber)}/",
        f"/download/unsubscribe/{unsubscribe_token(subscriber)}/",
    ]


@pytest.fixture
def manager_pages(django_user_model):
    """A sponsor's manager with an active sponsorship owed each kind of benefit, a new
    application awaiting card payment, and a monthly gift; the pages they can reach."""
    organisation = OrganisationFactory(name="Aurora Relational Systems Oy")
    manager = organisation.managers.get()
    manager.emailaddress_set.create(email=manager.email, primary=True, verified=True)
    active = SponsorshipFactory(organisation=organisation)
    for asset in Benefit.Asset:
        BenefitFactory(tier=active.tier, asset=asset, name=f"Benefit: {asset.label.lower()}")
    tier = TierFactory(name="Platinum", slug="platinum-walk")
    applied = applications.apply(organisation, tier, Sponsorship.Payment.CARD_ANNUAL, manager)
    monthly = DonationFactory(
        user=manager, frequency=Donation.Frequency.MONTHLY, status=Donation.Status.ACTIVE
    )
    GiftFactory(donation=monthly)
    # Renewing: a card payer's next term by card, and an invoice payer's open invoice.
    today = timezone.localdate()
    term = Term.one_year_from(today - timedelta(days=300))
    by_card = ActiveSponsorshipFactory(
        organisation=organisation,
        payment_method=Sponsorship.Payment.CARD_ONCE,
        starts_on=term.starts_on,
        ends_on=term.ends_on,
    )
    invoiced = ActiveSponsorshipFactory(
        organisation=organisation, starts_on=term.starts_on, ends_on=term.ends_on
    )
    documents.issue_invoice(
        invoiced,
        stripe_invoice_id="in_walk",
        due_on=today + timedelta(days=30),
        hosted_url="",
        term=term.following(),
    )
    org = f"/sponsors/organisations/{organisation.pk}"
    paths = [
        "/accounts/profile/",
        "/accounts/email/",
        "/accounts/password/change/",
        "/sponsors/dashboard/",
        f"{org}/",
        f"/sponsors/sponsorships/{active.pk}/benefits/",
        f"/sponsors/apply/{tier.pk}/",
        f"/sponsors/sponsorships/{applied.pk}/pay/",
        f"/sponsors/sponsorships/{applied.pk}/cancel/",
        f"/sponsors/sponsorships/{by_card.pk}/renew/",
        f"/sponsors/sponsorships/{invoiced.pk}/renew/",
        "/donate/my-gifts/",
    ]
    return manager, paths


# Pictures of the pages worth a look in both schemes (ARTIFACTS/<name>-<width>-<scheme>.png),
# by the last part of their path.
SHOTS = {
    "dashboard": str(ARTIFACTS / "account-dashboard"),
    "pay": str(ARTIFACTS / "sponsor-pay"),
    "renew": str(ARTIFACTS / "sponsor-renew"),
}


def test_account_and_sponsor_pages_reflow_and_pass_axe(
    live_server, browser, manager_pages, mail_link_pages, settings, localstripe_url
):
    # The pay page audited with the card field the fake's Stripe.js draws.
    settings.STRIPE_JS_URL = f"{localstripe_url}/js.stripe.com/v3/"
    manager, signed_in = manager_pages
    anonymous = [*ANONYMOUS, *mail_link_pages]
    client = Client()
    client.force_login(manager)
    session = client.cookies["sessionid"].value
    ARTIFACTS.mkdir(exist_ok=True)
    overflowing, violations, axe_runs = [], [], 0
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in [*anonymous, None, *signed_in]:
            if path is None:  # from here on, signed in
                context.add_cookies(
                    [{"name": "sessionid", "value": session, "url": live_server.url}]
                )
                continue
            response = page.goto(live_server.url + path, wait_until="load")
            assert response is not None and response.status == 200, path
            assert page.url == live_server.url + path, f"{path} went to {page.url}"
            shot = SHOTS.get(path.rsplit("/", 2)[-2])
            wide, blocking, runs = audit(page, path, width, screenshot=shot)
            overflowing += wide
            violations += blocking
            axe_runs += runs
        context.close()
    assert axe_runs == len(SCHEMES) * (len(anonymous) + len(signed_in))  # axe at AXE_WIDTH
    assert overflowing == [], "\n".join(overflowing)
    assert violations == [], "\n".join(violations)
