"""An invoice event that arrives before the site has stored the subscription it belongs to
(the pay request still waiting for Stripe's answer), and that carries no metadata (as
localstripe's never do), still pays its sponsorship: the site asks Stripe whose it is."""

import pytest

from payments import gateway
from sponsors import stripe_gateway, stripe_objects
from sponsors.models import Sponsorship
from sponsors.services import applications, paying
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event
from tests.stripe_js import confirm_card_setup

pytestmark = pytest.mark.django_db


def test_invoice_paid_before_the_subscription_id_is_stored_is_recorded(fake_stripe, post_event):
    organisation = OrganisationFactory()
    tier = TierFactory()
    sponsorship = applications.apply(organisation, tier, Sponsorship.Payment.CARD_ANNUAL, None)
    # What paying.pay does at Stripe, but the site has not saved the subscription id yet.
    stripe = gateway.client().v1
    setup = paying.start(sponsorship)
    confirm_card_setup(setup["client_secret"])
    card = gateway.confirmed_card(setup["id"])
    gateway.use_card(card)
    subscription_id = stripe_gateway.subscribe(
        card.customer_id, stripe_objects.ensure_plan(tier), sponsorship.pk, card.payment_method_id
    )
    invoice = stripe.invoices.retrieve(
        stripe.subscriptions.retrieve(subscription_id).latest_invoice
    ).to_dict()
    assert not invoice["metadata"]  # the invoice names only its subscription

    response = post_event(event("evt_early_1", "invoice.payment_succeeded", invoice))

    assert response.content.strip() == b"processed"
    sponsorship.refresh_from_db()
    assert sponsorship.is_paid
    assert [p.stripe_id for p in sponsorship.payments.all()] == [invoice["id"]]
