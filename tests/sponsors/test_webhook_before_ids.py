"""An invoice event that arrives before the site has stored the subscription it belongs to
(the pay request still waiting for Stripe's answer), and that carries no metadata (as
localstripe's never do), still pays its sponsorship: the site asks Stripe whose it is."""

import pytest

from payments import gateway
from sponsors import stripe_gateway, stripe_objects
from sponsors.models import Sponsorship
from sponsors.services import applications
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event

pytestmark = pytest.mark.django_db


def test_invoice_paid_before_the_subscription_id_is_stored_is_recorded(fake_stripe, post_event):
    organisation = OrganisationFactory()
    tier = TierFactory()
    sponsorship = applications.apply(organisation, tier, Sponsorship.Payment.CARD_ANNUAL, None)
    # What pay_by_card does at Stripe, but the site has not saved the subscription id yet.
    stripe = gateway.client().v1
    customer = stripe_objects.ensure_customer(organisation)
    card = stripe_gateway.card_payment_method(
        {"number": "4242424242424242", "exp_month": 12, "exp_year": 2030, "cvc": "123"}
    )
    stripe_gateway.attach_default_payment_method(customer, card)
    subscription_id = stripe_gateway.subscribe(
        customer, stripe_objects.ensure_plan(tier), sponsorship.pk, card
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
