from datetime import date

import factory

from sponsors.benefits.models import Benefit
from sponsors.models import Sponsorship
from tests.sponsors.factories import OrganisationFactory, TierFactory


class SponsorshipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Sponsorship

    organisation = factory.SubFactory(OrganisationFactory)
    tier = factory.SubFactory(TierFactory)
    payment_method = Sponsorship.Payment.INVOICE
    status = Sponsorship.Status.ACTIVE
    starts_on = date(2026, 11, 1)
    terms = factory.LazyAttribute(lambda sponsorship: sponsorship.tier.terms())


class BenefitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Benefit

    tier = factory.SubFactory(TierFactory)
    name = factory.Sequence(lambda n: f"Benefit {n}")
    asset = Benefit.Asset.NONE
    due_days = 30
