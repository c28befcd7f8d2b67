import uuid
from datetime import UTC, date, datetime
from decimal import Decimal

import factory

from donations.models import Donation, Expense, FundingGoal, Gift
from payments.money import minor_units


class DonationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Donation

    reference = factory.LazyFunction(uuid.uuid4)
    email = factory.Sequence(lambda n: f"donor{n}@example.org")
    amount = Decimal("25.00")
    currency = "EUR"
    frequency = Donation.Frequency.ONCE


class GiftFactory(factory.django.DjangoModelFactory):
    """A payment of a donation (``payments.Payment``); ``amount`` in the currency's units."""

    class Meta:
        model = Gift
        exclude = ("donation", "amount")

    donation = factory.SubFactory(DonationFactory, status=Donation.Status.PAID)
    paid_for = factory.SelfAttribute("donation")
    stripe_id = factory.Sequence(lambda n: f"pi_test_{n}")
    amount = factory.LazyAttribute(lambda gift: gift.donation.amount)
    currency = factory.LazyAttribute(lambda gift: gift.donation.currency)
    amount_minor = factory.LazyAttribute(lambda gift: minor_units(gift.amount, gift.currency))
    paid_at = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


class FundingGoalFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = FundingGoal

    year = 2026
    currency = "EUR"
    amount = Decimal("100000")


class ExpenseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Expense

    spent_on = date(2026, 3, 31)
    category = Expense.Category.INFRASTRUCTURE
    description = factory.Sequence(lambda n: f"Build servers, invoice {n}")
    amount = Decimal("1200.00")
    currency = "EUR"
