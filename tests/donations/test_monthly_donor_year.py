"""Issue 57: a monthly donor through 13 months, with the clock moved to each charge.

Stripe charges a monthly gift on its start's day of the month, or on the month's last day
when the month is shorter (``stripe_events.billing_days``); each charge is an invoice.paid
event, signed and dated by the moved clock. Each month is a gift with its own numbered
receipt dated by the charge, listed on the donor's manage page and counted by the funding
ledger in its own month and year; the yearly statement totals a calendar year. The years
are the coming leap year's, whatever day the suite runs on: the walk crosses a year end,
months of 28 to 31 days and 29 February.
"""

import calendar
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django.asserts import assertContains, assertNotContains

from donations import ledger
from donations.models import Donation, Gift
from donations.signing import manage_token
from invoicing.issuer import DEMO_NOTICE
from invoicing.models import IssuedDocument
from tests.donations import stripe_events
from tests.donations.factories import DonationFactory
from tests.invoicing.helpers import pdf_text

pytestmark = pytest.mark.django_db
CHARGED_AT = time(9, 30)  # Stripe charges at the time of day the subscription started


def leap_year_after(year: int) -> int:
    year += 1
    while not calendar.isleap(year):
        year += 1
    return year


def moment(day: date) -> datetime:
    return datetime.combine(day, CHARGED_AT, tzinfo=UTC)


def the_coming_leap_year() -> int:
    return leap_year_after(timezone.localdate().year)


def test_stripes_billing_days_keep_the_start_day_or_the_months_last_day():
    assert stripe_events.billing_days(date(2028, 1, 31), 13) == [
        date(2028, 1, 31),
        date(2028, 2, 29),
        date(2028, 3, 31),
        date(2028, 4, 30),
        date(2028, 5, 31),
        date(2028, 6, 30),
        date(2028, 7, 31),
        date(2028, 8, 31),
        date(2028, 9, 30),
        date(2028, 10, 31),
        date(2028, 11, 30),
        date(2028, 12, 31),
        date(2029, 1, 31),
    ]
    assert stripe_events.billing_days(date(2028, 2, 29), 13)[-2:] == [
        date(2029, 1, 29),
        date(2029, 2, 28),
    ]


class MonthlyDonor:
    """A monthly gift of €10 whose charges arrive as signed invoice.paid events, each on
    its day (the clock moved there)."""

    def __init__(self, client, capture, anchor: date):
        self.client, self.capture = client, capture
        self.days = stripe_events.billing_days(anchor, 13)
        with time_machine.travel(moment(anchor) - timedelta(minutes=5), tick=False):
            self.donation = DonationFactory(
                amount=Decimal("10"),
                frequency=Donation.Frequency.MONTHLY,
                status=Donation.Status.PENDING,
                email="giver@example.org",
                public_name="Ada Lovelace",
                stripe_customer_id="cus_donor_1",
                stripe_subscription_id="sub_donation_1",
            )

    def charge(self, n: int, *, delivered: datetime | None = None, event_id=""):
        """The n-th month's invoice paid on its day, its event delivered then (or later)."""
        when = moment(self.days[n])
        with time_machine.travel(delivered or when, tick=False):
            event = stripe_events.invoice_paid(
                self.donation,
                invoice_id=f"in_month_{n}",
                event_id=event_id or f"evt_month_{n}",
                created=int(when.timestamp()),
                charge=f"ch_month_{n}",
            )
            with self.capture(execute=True):
                response = stripe_events.post(self.client, event)
        assert response.content == b"processed\n", response.content

    def refund(self, n: int, minor: int, on: datetime):
        """Staff refund part of the n-th month's charge on Stripe's dashboard."""
        obj = {
            "id": f"ch_month_{n}",
            "object": "charge",
            "invoice": f"in_month_{n}",
            "customer": "cus_donor_1",
            "amount": 1000,
            "amount_refunded": minor,
            "currency": "eur",
            "created": int(moment(self.days[n]).timestamp()),
        }
        with time_machine.travel(on, tick=False):
            event = stripe_events.event(f"evt_refund_{n}", "charge.refunded", obj)
            with self.capture(execute=True):
                response = stripe_events.post(self.client, event)
        assert response.content == b"processed\n", response.content

    def get(self, path: str, *, on: datetime):
        """A page of the donor's, opened with a link made that day."""
        with time_machine.travel(on, tick=False):
            token = manage_token(self.donation.reference)
            return token, self.client.get(path.format(token=token))


@pytest.fixture
def donor(client, django_capture_on_commit_callbacks, request):
    return MonthlyDonor(client, django_capture_on_commit_callbacks, request.param)


def starts():
    """31 January of the coming leap year (29 February, months of 30 days, a year end),
    29 February (its day missing the next year) and 31 December before it (two year ends)."""
    leap = the_coming_leap_year()
    return {
        "31-january": date(leap, 1, 31),
        "29-february": date(leap, 2, 29),
        "31-december": date(leap - 1, 12, 31),
    }


@pytest.mark.parametrize("donor", list(starts().values()), ids=list(starts()), indirect=True)
def test_thirteen_months_are_thirteen_gifts_each_with_its_receipt(donor):
    for n in range(13):  # each event reaches the site after midnight: dated by the charge
        donor.charge(n, delivered=moment(donor.days[n]) + timedelta(hours=15))

    donation = Donation.objects.get()
    assert donation.status == Donation.Status.ACTIVE
    gifts = list(Gift.objects.filter(donation=donation).order_by("paid_at"))
    assert [timezone.localtime(gift.paid_at).date() for gift in gifts] == donor.days
    assert {gift.amount for gift in gifts} == {Decimal("10")}

    # One receipt per charge, numbered in the order of the charges and dated by them.
    receipts = {doc.occasion: doc for doc in IssuedDocument.objects.about(donation).receipts()}
    assert len(receipts) == 13
    issued = [receipts[gift.stripe_id] for gift in gifts]
    first = int(issued[0].number.removeprefix("RCT-"))
    assert [doc.number for doc in issued] == [f"RCT-{first + n:06d}" for n in range(13)]
    assert [doc.issued_on for doc in issued] == donor.days
    assert [doc.content["paid"]["on"] for doc in issued] == [d.isoformat() for d in donor.days]
    assert [doc.content["lines"][0]["description"] for doc in issued] == [
        f"Monthly gift to the MariaDB Foundation, {day:%B %Y}" for day in donor.days
    ]
    # A receipt mail per charge, naming its receipt.
    assert len(mail.outbox) == 13
    for message, doc in zip(mail.outbox, issued, strict=True):
        assert f"Receipt {doc.number}" in message.body
        assert message.to == ["giver@example.org"]

    # The funding ledger counts each month in its own month and year.
    years = Counter(day.year for day in donor.days)
    for year, count in years.items():
        gifts_of_year = [e for e in ledger.entries(year) if e.category == ledger.DONORS]
        assert sorted(entry.on for entry in gifts_of_year) == [
            day for day in donor.days if day.year == year
        ]
        assert sum(entry.amount for entry in gifts_of_year) == Decimal(10 * count)
    for year in (min(years) - 1, max(years) + 1):
        assert not [e for e in ledger.entries(year) if e.category == ledger.DONORS]

    # The manage page, opened a week after the last charge, lists every receipt and
    # offers a statement for each year with gifts, and no other.
    token, page = donor.get("/donate/manage/{token}/", on=moment(donor.days[-1]) + timedelta(7))
    for gift, doc in zip(gifts, issued, strict=True):
        day = f"{timezone.localtime(gift.paid_at):%-d %B %Y}"
        assertContains(
            page,
            f'<a href="/donate/manage/{token}/receipt/{gift.pk}/">{doc.number} (PDF)'
            f'<span class="visually-hidden"> of {day}</span></a>',
            html=True,
        )
    for year in sorted(years):
        assertContains(
            page,
            f'<a href="/donate/manage/{token}/statement/{year}/">Your gifts in {year}</a>',
            html=True,
        )
    for year in (min(years) - 1, max(years) + 1):
        assertNotContains(page, f"/statement/{year}/")

    # Each year's statement lists that year's gifts with their receipts and totals them.
    for year, count in years.items():
        _, statement = donor.get(
            f"/donate/manage/{{token}}/statement/{year}/", on=moment(donor.days[-1])
        )
        assertContains(statement, f"<h1>Your gifts in {year}</h1>", html=True)
        for gift, doc in zip(gifts, issued, strict=True):
            if doc.issued_on.year == year:
                assertContains(statement, f'receipt/{gift.pk}/">{doc.number}</a>')
            else:
                assertNotContains(statement, doc.number)
        total = f"€{10 * count}"
        assertContains(
            statement,
            f'<tr><th scope="row">EUR</th><td class="num">{total}</td>'
            f'<td class="num">none</td><td class="num">{total}</td></tr>',
            html=True,
        )


@pytest.fixture
def across_a_year_end(client, django_capture_on_commit_callbacks):
    """A gift started on 30 November: charged 30 November, 30 December, 30 January."""
    donor = MonthlyDonor(
        client,
        django_capture_on_commit_callbacks,
        date(the_coming_leap_year() - 1, 11, 30),
    )
    for n in range(3):
        donor.charge(n)
    return donor


def test_refunds_show_on_the_statement_of_the_year_the_money_went_back(across_a_year_end):
    donor = across_a_year_end
    november, december, january = donor.days[:3]
    # Half of December's gift is refunded in December, all of November's in January.
    donor.refund(1, 500, moment(december) + timedelta(days=1))
    donor.refund(0, 1000, moment(january) + timedelta(days=2))
    numbers = {
        doc.issued_on: doc.number for doc in IssuedDocument.objects.about(donor.donation).receipts()
    }
    later = moment(january) + timedelta(days=10)

    _, first = donor.get(f"/donate/manage/{{token}}/statement/{november.year}/", on=later)
    assertContains(first, f"{numbers[november]}</a>")
    assertContains(first, f"<td>Refund of the gift of 30 December {december.year}</td>", html=True)
    assertContains(
        first,
        '<tr><th scope="row">EUR</th><td class="num">€20</td><td class="num">€5</td>'
        '<td class="num">€15</td></tr>',
        html=True,
    )
    _, second = donor.get(f"/donate/manage/{{token}}/statement/{january.year}/", on=later)
    assertContains(
        second,
        f"<td>Refund of the gift of 30 November {november.year}</td>",
        html=True,
    )
    assertContains(second, '<td class="num">−€10</td>', html=True)
    assertContains(second, f"{numbers[november]}</a>")  # the receipt of the gift refunded
    assertContains(
        second,
        '<tr><th scope="row">EUR</th><td class="num">€10</td><td class="num">€10</td>'
        '<td class="num">€0</td></tr>',
        html=True,
    )

    # The PDF says the same, under the demo issuer's warning as the receipts do.
    _, response = donor.get(f"/donate/manage/{{token}}/statement/{november.year}/pdf/", on=later)
    assert response["Content-Disposition"] == f'attachment; filename="gifts-{november.year}.pdf"'
    text = pdf_text(response)
    assert " ".join(DEMO_NOTICE.split()) in text
    assert f"Statement of gifts, {november.year}" in text
    for day in (november, december):
        assert numbers[day] in text
    assert numbers[january] not in text
    assert f"Refund of the gift of 30 December {december.year}" in text
    assert "Total for" in text


def test_a_stranger_gets_no_statement(across_a_year_end, client):
    donor = across_a_year_end
    year = donor.days[0].year
    later = moment(donor.days[-1]) + timedelta(days=1)
    stranger = DonationFactory(frequency=Donation.Frequency.MONTHLY)
    with time_machine.travel(later, tick=False):
        theirs = manage_token(stranger.reference)
        for path in (
            f"/donate/manage/nonsense/statement/{year}/",
            f"/donate/manage/nonsense/statement/{year}/pdf/",
            f"/donate/manage/{theirs}/statement/{year}/",  # another gift's link
            f"/donate/manage/{theirs}/statement/{year}/pdf/",
        ):
            assert client.get(path).status_code == 404, path
    # A link older than DONATION_LINK_MAX_AGE_DAYS opens nothing.
    path = f"/donate/manage/{{token}}/statement/{year}/"
    with time_machine.travel(later, tick=False):
        token = manage_token(donor.donation.reference)
    with time_machine.travel(later + timedelta(days=46), tick=False):
        assert client.get(path.format(token=token)).status_code == 404
        assert donor.get(path, on=later + timedelta(days=46))[1].status_code == 200


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(year=st.integers(min_value=0, max_value=10**12))
def test_only_a_year_with_gifts_has_a_statement(across_a_year_end, year):
    """Any other year answers 404 (never a 500, never an empty statement), and so does
    every year for a link to another gift."""
    donor = across_a_year_end
    years = {day.year for day in donor.days[:3]}
    path = f"/donate/manage/{{token}}/statement/{year}/"
    status = donor.get(path, on=moment(donor.days[2]))[1].status_code
    assert status == (200 if year in years else 404)
    assert donor.get(path + "pdf/", on=moment(donor.days[2]))[1].status_code == status


def deleted(event_id="evt_sub_deleted"):
    obj = {
        "id": "sub_donation_1",
        "object": "subscription",
        "customer": "cus_donor_1",
        "status": "canceled",
        "created": 1773144000,
    }
    return stripe_events.event(event_id, "customer.subscription.deleted", obj)


@pytest.fixture
def three_months_given(client, django_capture_on_commit_callbacks):
    donor = MonthlyDonor(client, django_capture_on_commit_callbacks, starts()["31-january"])
    for n in range(3):
        donor.charge(n)
    return donor


def test_a_cancelled_gift_takes_no_more_but_keeps_what_stripe_charged(
    three_months_given, client, caplog
):
    """The donor cancels on the morning of the fourth charge, and the site's call reaches
    Stripe only after Stripe charged: that money was taken, so it is recorded with its
    receipt (and logged for staff, who may refund it) and the gift stays cancelled. After
    the subscription is deleted Stripe makes no further invoice (tests/donations/
    test_card_gifts.py, at localstripe)."""
    donor = three_months_given
    fourth = moment(donor.days[3])
    manage = "/donate/manage/{token}/"
    with time_machine.travel(fourth - timedelta(minutes=30), tick=False):
        token = manage_token(donor.donation.reference)
        with donor.capture():  # the outbox's call to Stripe waits
            response = client.post(
                manage.format(token=token), {"action": "cancel", "confirm": "yes"}
            )
        assert response.status_code == 302
    with (
        time_machine.travel(fourth + timedelta(minutes=30), tick=False),
        donor.capture(execute=True),
    ):
        assert stripe_events.post(client, deleted()).content == b"processed\n"
    _, page = donor.get(manage, on=fourth + timedelta(hours=1))
    assertContains(page, "<dt>Status</dt><dd>Cancelled</dd>", html=True)
    assertNotContains(page, "Cancel the monthly gift")
    assertNotContains(page, "You cancelled this monthly gift")

    # The fourth month's invoice.paid, made at 09:30, arrives after the deletion.
    donor.charge(3, delivered=fourth + timedelta(hours=2))
    donation = Donation.objects.get()
    assert donation.status == Donation.Status.CANCELLED
    gifts = list(Gift.objects.filter(donation=donation).order_by("paid_at"))
    assert [timezone.localtime(gift.paid_at).date() for gift in gifts] == donor.days[:4]
    receipts = IssuedDocument.objects.about(donation).receipts()
    assert sorted(receipts.values_list("issued_on", flat=True)) == donor.days[:4]
    assert "charged after the donor asked to stop" in caplog.text
    _, page = donor.get(manage, on=fourth + timedelta(hours=3))
    assertContains(page, "<dt>Status</dt><dd>Cancelled</dd>", html=True)
    assertNotContains(page, "Cancel the monthly gift")
    assertContains(page, f"{receipts.get(issued_on=donor.days[3]).number} (PDF)")

    # Stripe retries an event already delivered: counted once, no second receipt.
    caplog.clear()
    donor.charge(3, delivered=fourth + timedelta(hours=4), event_id="evt_month_3_retry")
    assert Gift.objects.count() == 4
    assert receipts.count() == 4
    assert "charged after" not in caplog.text
