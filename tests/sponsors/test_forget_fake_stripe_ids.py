"""`make run` starts an empty Stripe fake each time; the plan and customer ids the last one
made are forgotten first (else the next card payment names a plan the fake never had),
and never against the real Stripe or in production."""

import pytest
from django.core.management import CommandError, call_command

from sponsors.models import Organisation, Tier
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db


def test_it_forgets_plans_and_customers_of_the_fake(settings):
    settings.STRIPE_API_BASE = "http://127.0.0.1:8420"
    TierFactory(stripe_plan_id="plan_old")
    OrganisationFactory(stripe_customer_id="cus_old")
    call_command("forget_fake_stripe_ids")
    assert list(Tier.objects.values_list("stripe_plan_id", flat=True)) == [""]
    assert list(Organisation.objects.values_list("stripe_customer_id", flat=True)) == [""]


@pytest.mark.parametrize("production, api_base", [(False, ""), (True, "http://127.0.0.1:8420")])
def test_it_refuses_the_real_stripe_and_production(settings, production, api_base):
    settings.PRODUCTION, settings.STRIPE_API_BASE = production, api_base
    TierFactory(stripe_plan_id="plan_live")
    with pytest.raises(CommandError):
        call_command("forget_fake_stripe_ids")
    assert Tier.objects.get().stripe_plan_id == "plan_live"
