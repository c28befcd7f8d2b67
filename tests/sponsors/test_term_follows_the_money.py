"""Issue 58, item 3: the term a sponsorship runs follows the money it kept. A term's
payment refunded in full, or lost to a dispute, ends the term it bought (it ran until
the day before, or never started), staff are told through the outbox and so is the
sponsor; part of it taken back, a dispute opened or won, is flagged to staff and the
term stands. Net €0 buys no time: two terms paid and both refunded leave nothing paid."""

import itertools
import time as clock
from datetime import UTC, date, datetime, time, timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django.asserts import assertContains, assertNotContains

from outbox.models import OutboxItem
from payments import ledger as payments_ledger
from payments import recording as ledger_recording
from sponsors.models import PaidTerm, Sponsorship
from sponsors.services import applications, lifecycle, recording
from sponsors.terms import Term, long_date
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.helpers import event

pytestmark = pytest.mark.django_db
S = Sponsorship.Status
PRICE = 5_000_000  # EUR 50,000 in cents
STAFF = "board@example.org"
ENDED = "Sponsorship term ended: the payment went back: Refundia Oy"
FLAGGED = "Sponsorship payment taken back in part: Refundia Oy"


def on(day: date):
    return time_machine.travel(datetime.combine(day, time(9), tzinfo=UTC))


@pytest.fixture(autouse=True)
def _staff(settings):
    settings.STAFF_NOTIFICATION_EMAILS = [STAFF]


@pytest.fixture
def post(post_event, django_capture_on_commit_callbacks):
    def deliver(payload):
        with django_capture_on_commit_callbacks(execute=True):
            answer = post_event(payload)
        assert answer.status_code == 200, answer.content
        return answer.content.decode().strip()

    return deliver


@pytest.fixture
def manager():
    return UserFactory()


def paid(sponsorship, intent, steps=None):
    return recording.record_payment(
        sponsorship.pk,
        stripe_id=intent,
        payment_intent_id=intent,
        amount_minor=PRICE,
        currency="EUR",
        paid_at=timezone.now(),
    )


@pytest.fixture
def running(manager, django_capture_on_commit_callbacks):
    """A Gold sponsorship paid by card today and approved: one term, paid by pi_first."""
    organisation = OrganisationFactory(name="Refundia Oy", managers=[manager])
    sponsorship = applications.apply(organisation, TierFactory(), "card_once", manager)
    with django_capture_on_commit_callbacks(execute=True):
        paid(sponsorship, "pi_first")
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    sponsorship.refresh_from_db()
    mail.outbox.clear()
    return sponsorship


def refunded(intent, amount, event_id=None):
    charge = {
        "id": f"ch_{intent}",
        "object": "charge",
        "payment_intent": intent,
        "amount": PRICE,
        "amount_refunded": amount,
        "currency": "eur",
        "created": int(clock.time()),
    }
    return event(event_id or f"evt_refund_{intent}_{amount}", "charge.refunded", charge)


def disputed(intent, amount, status):
    dispute = {
        "id": f"dp_{intent}",
        "object": "dispute",
        "charge": f"ch_{intent}",
        "payment_intent": intent,
        "amount": amount,
        "currency": "eur",
        "status": status,
        "created": int(clock.time()),
    }
    return event(f"evt_dispute_{intent}_{status}", "charge.dispute.updated", dispute)


def to_staff():
    return [m for m in mail.outbox if m.to == [STAFF]]


def to_sponsor(sponsorship):
    return [m for m in mail.outbox if sponsorship.organisation.billing_email in m.to]


def test_net_zero_buys_no_time(client, running, post, manager):
    """The issue's reproducer: two terms paid, both refunded in full. The renewal's term
    never starts; the first ends the day its money went back; nothing is paid."""
    sponsorship = running
    term1 = sponsorship.current_term
    term2 = term1.following()
    with on(term1.starts_on + timedelta(days=100)):
        paid(sponsorship, "pi_renewal")
        sponsorship.refresh_from_db()
        assert sponsorship.ends_on == term2.ends_on
        assert post(refunded("pi_renewal", PRICE)) == "processed"
        sponsorship.refresh_from_db()
        assert (sponsorship.status, sponsorship.ends_on) == (S.ACTIVE, term1.ends_on)
        assert PaidTerm.objects.get(payment__stripe_id="pi_renewal").ran is None
        (told,) = to_staff()
        assert told.subject == ENDED
        assert "EUR 50000.00 refunded" in told.body and "it never started" in told.body
        (heard,) = to_sponsor(sponsorship)
        assert heard.subject == "Your sponsorship's payment went back: its term ended"
        assert f"term {term2}, went back in full on" in heard.body and "never started" in heard.body
        assert f"runs until {long_date(term1.ends_on)}" in heard.body
        assert post(refunded("pi_renewal", PRICE, event_id="evt_again")) == "processed"
        assert len(to_staff()) == 1  # a repeated refund tells nobody twice

    refund_day = term1.starts_on + timedelta(days=130)
    with on(refund_day):
        mail.outbox.clear()
        assert post(refunded("pi_first", PRICE)) == "processed"
        sponsorship.refresh_from_db()
        assert sponsorship.status == S.LAPSED
        assert (sponsorship.starts_on, sponsorship.ends_on, sponsorship.paid_at) == (None,) * 3
        ran = PaidTerm.objects.get(payment__stripe_id="pi_first").ran
        assert ran == Term(term1.starts_on, refund_day - timedelta(days=1))
        assert [m.subject for m in to_staff()] == [ENDED]
        assert f"it ran {ran}" in to_staff()[0].body
        assertNotContains(client.get("/supporters/"), "Refundia Oy")
        client.force_login(manager)
        dashboard = client.get("/sponsors/dashboard/")
        assertContains(dashboard, '<span class="badge badge-lapsed">Refunded</span>', html=True)
        assertContains(dashboard, f"The term it paid for, {term1}, ended: it ran {ran}.")
        assertContains(dashboard, "(€50,000 refunded)")
        assertNotContains(dashboard, "Nothing to do")
        lifecycle.run_renewals()  # nothing is left to remind or lapse
        assert not [m for m in mail.outbox if "renew" in m.subject.lower()]


# How the money of the running term went back; whether all of it; what staff hear.
TAKEN_BACK = {
    "refunded-in-full": ([lambda i: refunded(i, PRICE)], True),
    "lost-dispute": ([lambda i: disputed(i, PRICE, "needs_response"), lambda i: disputed(i, PRICE, "lost")], True),
    "part-refunded-then-the-rest-lost-to-a-dispute": (
        [lambda i: refunded(i, PRICE // 4), lambda i: disputed(i, PRICE - PRICE // 4, "lost")],
        True,
    ),
    "refunded-in-part": ([lambda i: refunded(i, PRICE - 1)], False),
    "a-dispute-open": ([lambda i: disputed(i, PRICE, "needs_response")], False),
    "a-dispute-won": ([lambda i: disputed(i, PRICE, "needs_response"), lambda i: disputed(i, PRICE, "won")], False),
}  # fmt: skip


@pytest.mark.parametrize("case", TAKEN_BACK, ids=list(TAKEN_BACK))
def test_the_running_term_follows_what_was_kept_of_its_payment(client, running, post, case):
    events, all_gone = TAKEN_BACK[case]
    sponsorship = running
    term = sponsorship.current_term
    for make in events:
        assert post(make("pi_first")) == "processed"
    sponsorship.refresh_from_db()
    row = PaidTerm.objects.get(payment__stripe_id="pi_first")
    if all_gone:
        assert sponsorship.status == S.LAPSED and not row.kept
        assert to_staff()[-1].subject == ENDED
        assert [m.subject for m in to_sponsor(sponsorship)] == [
            "Your sponsorship's payment went back: its term ended"
        ]
    else:
        assert sponsorship.status == S.ACTIVE and row.kept
        assert sponsorship.current_term == term
        # every change of what was taken back is flagged to staff, once
        assert [m.subject for m in to_staff()] == [FLAGGED] * len(events)
        assert "The term stands" in to_staff()[-1].body
        assert to_sponsor(sponsorship) == []
    assert set(
        OutboxItem.objects.filter(kind="sponsors.money_returned").values_list("status", flat=True)
    ) == {OutboxItem.Status.DONE}


def test_a_refund_that_arrives_before_its_payment_ends_the_term_it_buys(running, post):
    sponsorship = running
    assert post(refunded("pi_early_refund", PRICE)) == "processed"  # matches no payment yet
    paid(sponsorship, "pi_early_refund")  # the renewal's payment arrives after its refund
    sponsorship.refresh_from_db()
    assert sponsorship.ends_on == sponsorship.current_term.ends_on  # nothing was added
    assert not PaidTerm.objects.get(payment__stripe_id="pi_early_refund").kept


def test_a_term_paid_in_december_and_refunded_in_january_ends_and_offers_no_renewal(
    client, manager, post, django_capture_on_commit_callbacks
):
    """Across a year boundary: paid on 20 December, refunded in full on 10 January. The
    term ends, the sponsorship lapses, its page offers no "Renew now", and each year's
    income holds what happened in it (+50,000 then -50,000)."""
    year = timezone.localdate().year + 1
    with on(date(year, 12, 20)):
        organisation = OrganisationFactory(name="Refundia Oy", managers=[manager])
        sponsorship = applications.apply(organisation, TierFactory(), "card_once", manager)
        with django_capture_on_commit_callbacks(execute=True):
            paid(sponsorship, "pi_december")
            lifecycle.approve(sponsorship, UserFactory(is_staff=True))
        client.force_login(manager)
        page = client.get(f"/sponsors/organisations/{organisation.pk}/")
        assertContains(page, "Renew now")  # the control: a paid, running term renews
    with on(date(year + 1, 1, 10)):
        assert post(refunded("pi_december", PRICE)) == "processed"
        sponsorship.refresh_from_db()
        assert (sponsorship.status, sponsorship.ends_on, sponsorship.paid_at) == (
            S.LAPSED,
            None,
            None,
        )
        ran = PaidTerm.objects.get(payment__stripe_id="pi_december").ran
        assert ran == Term(date(year, 12, 20), date(year + 1, 1, 9))
        client.force_login(manager)  # three weeks on: a new session
        page = client.get(f"/sponsors/organisations/{organisation.pk}/")
        assertNotContains(page, "Renew now")
        assertNotContains(client.get("/supporters/"), "Refundia Oy")
        assert [m.subject for m in to_staff()][-1] == ENDED
        income = {y: sum(i.amount for i in payments_ledger.income_in(y)) for y in (year, year + 1)}
        assert income == {year: 50_000, year + 1: -50_000}


def test_an_application_paid_then_refunded_is_paid_no_more(client, manager, post):
    organisation = OrganisationFactory(name="Refundia Oy", managers=[manager])
    application = applications.apply(organisation, TierFactory(), "card_once", manager)
    paid(application, "pi_app")
    assert post(refunded("pi_app", PRICE)) == "processed"
    application.refresh_from_db()
    assert (application.status, application.paid_at, application.starts_on) == (
        S.APPLIED,
        None,
        None,
    )
    lifecycle.approve(application, UserFactory(is_staff=True))
    application.refresh_from_db()
    assert application.status == S.AWAITING_PAYMENT  # approval does not activate a refund


_fresh = itertools.count()


def fresh_running_sponsorship() -> Sponsorship:
    number = next(_fresh)
    organisation = OrganisationFactory(name=f"Refundia {number}")
    sponsorship = applications.apply(organisation, TierFactory(), "card_once", None)
    paid(sponsorship, f"pi_{number}_first")
    lifecycle.approve(sponsorship, None)
    return Sponsorship.objects.get(pk=sponsorship.pk)


TAKEN = st.integers(min_value=0, max_value=PRICE).flatmap(
    lambda refund: st.tuples(st.just(refund), st.integers(min_value=0, max_value=PRICE - refund))
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(taken=TAKEN, renewal=st.booleans(), refund_first=st.booleans())
def test_a_term_ends_exactly_when_all_of_its_money_is_gone(taken, renewal, refund_first):
    """Whatever part is refunded and whatever part lost to a dispute, in either order: the
    term ends if and only if together they took back the whole payment, and the paid time
    is what the money kept buys."""
    refund, lost = taken
    sponsorship = fresh_running_sponsorship()
    first_term = sponsorship.current_term
    target = sponsorship.paid_terms.get().payment.stripe_id
    if renewal:
        target = target.replace("first", "renewal")
        paid(sponsorship, target)
    when = datetime.now(UTC)
    steps = [
        lambda: refund and ledger_recording.record_refund(
            charge_id=f"ch_{target}", payment_intent_id=target, invoice_id="", customer_id="",
            amount_minor=refund, currency="EUR", refunded_at=when,
        ),
        lambda: lost and ledger_recording.record_dispute(
            dispute_id=f"dp_{target}", charge_id=f"ch_{target}", payment_intent_id=target,
            amount_minor=lost, currency="EUR", status="lost", opened_at=when,
        ),
    ]  # fmt: skip
    for step in steps if refund_first else reversed(steps):
        step()
    row = PaidTerm.objects.get(payment__stripe_id=target)
    after = Sponsorship.objects.get(pk=sponsorship.pk)
    all_gone = refund + lost >= PRICE
    assert row.kept == (not all_gone)
    if not all_gone:
        expected_end = first_term.following().ends_on if renewal else first_term.ends_on
        assert (after.status, after.ends_on) == (S.ACTIVE, expected_end)
    elif renewal:
        assert (after.status, after.ends_on) == (S.ACTIVE, first_term.ends_on)
    else:
        assert (after.status, after.ends_on) == (S.LAPSED, None)
