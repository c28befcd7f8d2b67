"""The Stripe objects the site keeps the id of: an organisation's customer and a tier's
plan. Made once: the id is stored under the row's lock, and a request that finds one
stored (made by another request meanwhile) uses it. The Stripe call itself is made with
no lock held, and its idempotency key (``stripe_gateway``) makes two racing requests get
one object.
"""

from django.db import transaction

from sponsors import stripe_gateway
from sponsors.models import Organisation, Sponsorship, Tier


def ensure_customer(organisation: Organisation) -> str:
    """The organisation's Stripe customer id, made and stored if it has none."""
    if not organisation.stripe_customer_id:
        made = stripe_gateway.create_customer(organisation)
        with transaction.atomic():
            locked = Organisation.objects.select_for_update().get(pk=organisation.pk)
            if not locked.stripe_customer_id:
                locked.stripe_customer_id = made
                locked.save(update_fields=["stripe_customer_id"])
        organisation.stripe_customer_id = locked.stripe_customer_id
    return organisation.stripe_customer_id


def ensure_plan(tier: Tier) -> str:
    """The tier's yearly Stripe plan id, made and stored if it has none."""
    if not tier.stripe_plan_id:
        made = stripe_gateway.create_plan(tier)
        with transaction.atomic():
            locked = Tier.objects.select_for_update().get(pk=tier.pk)
            if not locked.stripe_plan_id:
                locked.stripe_plan_id = made
                locked.save(update_fields=["stripe_plan_id"])
        tier.stripe_plan_id = locked.stripe_plan_id
    return tier.stripe_plan_id


def store_payment_ids(sponsorship: Sponsorship, *, subscription_id="", payment_intent_id=""):
    """Record what a card payment just made at Stripe, under the sponsorship's lock (a
    webhook about it may be storing ids meanwhile); an id not given is left as it is."""
    with transaction.atomic():
        locked = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
        locked.stripe_subscription_id = subscription_id or locked.stripe_subscription_id
        locked.stripe_payment_intent_id = payment_intent_id or locked.stripe_payment_intent_id
        locked.save(update_fields=["stripe_subscription_id", "stripe_payment_intent_id"])
    sponsorship.stripe_subscription_id = locked.stripe_subscription_id
    sponsorship.stripe_payment_intent_id = locked.stripe_payment_intent_id


def forget_payment_ids(sponsorship: Sponsorship, *, subscription_id="", payment_intent_id=""):
    """Forget a card payment that failed (nothing was taken), so that the sponsor may pay
    again and the sponsorship counts as nothing paid; an id stored meanwhile by another
    request is kept."""
    with transaction.atomic():
        locked = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
        if subscription_id and locked.stripe_subscription_id == subscription_id:
            locked.stripe_subscription_id = ""
        if payment_intent_id and locked.stripe_payment_intent_id == payment_intent_id:
            locked.stripe_payment_intent_id = ""
        locked.save(update_fields=["stripe_subscription_id", "stripe_payment_intent_id"])
    sponsorship.stripe_subscription_id = locked.stripe_subscription_id
    sponsorship.stripe_payment_intent_id = locked.stripe_payment_intent_id
