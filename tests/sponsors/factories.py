from decimal import Decimal

import factory
from django.utils import timezone

from payments.money import minor_units
from sponsors.models import Organisation, Payment, Programme, Sponsorship, Tier
from tests.foundation.factories import UserFactory


class ProgrammeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Programme
        django_get_or_create = ["kind"]

    kind = "sponsor"
    name = "Commercial sponsor"


class TierFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tier

    programme = factory.SubFactory(ProgrammeFactory)
    name = "Gold"
    slug = factory.Sequence(lambda n: f"gold-{n}")
    annual_price = Decimal("50000")
    logo_height = 90


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Company {n}")
    website = "https://company.example"
    billing_name = "Accounts"
    billing_email = factory.Sequence(lambda n: f"billing{n}@company.example")

    @factory.post_generation
    def managers(self, create, extracted, **kwargs):
        if create:
            self.managers.add(*(extracted or [UserFactory()]))


class ActiveSponsorshipFactory(factory.django.DjangoModelFactory):
    """A sponsorship shown on the supporters page and the home page's strip."""

    class Meta:
        model = Sponsorship

    organisation = factory.SubFactory(OrganisationFactory)
    tier = factory.SubFactory(TierFactory)
    terms = factory.LazyAttribute(lambda o: o.tier.terms())
    status = Sponsorship.Status.ACTIVE
    payment_method = Sponsorship.Payment.INVOICE


class PaymentFactory(factory.django.DjangoModelFactory):
    """A sponsorship's payment (``payments.Payment``); ``amount`` in the currency's units."""

    class Meta:
        model = Payment
        exclude = ("sponsorship", "amount")

    sponsorship = None  # required
    paid_for = factory.SelfAttribute("sponsorship")
    stripe_id = factory.Sequence(lambda n: f"in_test_{n}")
    amount = Decimal("50000")
    currency = "EUR"
    amount_minor = factory.LazyAttribute(
        lambda payment: minor_units(payment.amount, payment.currency)
    )
    paid_at = factory.LazyFunction(timezone.now)
