"""No destructive action happens on one click: a page says what will happen, a second
POST does it, a message says it was done, and a withdrawn application or a cancelled
sponsorship can be taken back for a while (Stripe is asked to end a subscription only
once that window has passed)."""

from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from outbox import delivery
from outbox.models import OutboxItem
from sponsors.mail import STATUS_MAIL
from sponsors.models import Sponsorship, SponsorshipEvent
from sponsors.services import applications, lifecycle
from sponsors.stripe_tasks import CANCEL_SUBSCRIPTION
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db
S = Sponsorship.Status


@pytest.fixture
def owner(client):
    organisation = OrganisationFactory()
    manager = organisation.managers.get()
    client.force_login(manager)
    return manager


def applied(owner, **tier):
    organisation = owner.organisations.get()
    return applications.apply(organisation, TierFactory(**tier), "card_annual", owner)


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_withdrawing_an_application_asks_first_and_says_what_happens(client, owner):
    sponsorship = applied(owner)
    url = f"/sponsors/sponsorships/{sponsorship.pk}/cancel/"
    page = client.get(url)
    assertContains(page, '<h1 id="confirm-title">Withdraw the Gold application?</h1>', html=True)
    assertContains(page, "Nothing has been paid, so nothing is charged or refunded.")
    assertContains(
        page,
        '<button class="button button-danger" type="submit">Withdraw the application</button>',
        html=True,
    )
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.APPLIED  # looking changed nothing
    done = client.post(url, follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assert "Your application for Gold was withdrawn. You can undo this for 15 minutes below." in (
        messages_of(done)
    )
    assertContains(done, "Undo the withdrawal")


def test_a_withdrawn_application_says_withdrawn_and_when_undo_ends(client, owner):
    sponsorship = applied(owner)
    done = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/", follow=True)
    assertContains(done, '<span class="badge badge-cancelled">Withdrawn</span>', html=True)
    deadline = timezone.localtime(
        sponsorship.events.get(to_status=S.CANCELLED).at + timedelta(minutes=15)
    )
    assertContains(done, f"Possible until {deadline:%-d %B %Y, %H:%M} {deadline.tzname()}.")
    # Nothing to undo on a sponsorship that was never cancelled: said as such.
    other = applied(owner, name="Silver", slug="silver-undo")
    answer = client.post(f"/sponsors/sponsorships/{other.pk}/undo-cancel/", follow=True)
    assert "This sponsorship is not cancelled: there is nothing to undo." in messages_of(answer)


def test_a_withdrawal_can_be_undone_within_the_window_only(client, owner):
    sponsorship = applied(owner)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    undone = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.APPLIED
    assert "Your application is back, exactly as it was." in messages_of(undone)
    assert list(sponsorship.events.values_list("to_status", flat=True)) == [
        "applied",
        "cancelled",
        "applied",
    ]
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    SponsorshipEvent.objects.filter(to_status=S.CANCELLED).update(
        at=timezone.now() - timedelta(minutes=16),
        undoable_until=timezone.now() - timedelta(minutes=1),
    )
    late = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assert any("can no longer be undone" in m for m in messages_of(late))
    assertNotContains(late, "Undo the withdrawal")


def test_undo_is_refused_when_the_tier_filled_up_meanwhile(client, owner):
    sponsorship = applied(owner, capacity=1)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    other = OrganisationFactory()
    applications.apply(other, sponsorship.tier, "invoice", other.managers.get())
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/")
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED


def paid_by_card(owner):
    sponsorship = applied(owner)
    Sponsorship.objects.filter(pk=sponsorship.pk).update(
        status=S.ACTIVE, paid_at=timezone.now(), stripe_subscription_id="sub_1"
    )
    return sponsorship


def stripe_cancellations():
    return OutboxItem.objects.filter(kind=CANCEL_SUBSCRIPTION, payload={"subscription_id": "sub_1"})


def test_a_paid_sponsorships_cancellation_waits_for_the_undo_window_before_stripe(client, owner):
    sponsorship = paid_by_card(owner)
    url = f"/sponsors/sponsorships/{sponsorship.pk}/cancel/"
    page = client.get(url)
    assertContains(page, "Stripe stops the yearly renewal: no further payment is taken.")
    assertContains(
        page,
        "You can undo this for 15 minutes (Stripe is asked to stop the renewal only after that)",
    )
    done = client.post(url, follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assert any(
        "sponsorship was cancelled" in m and "undo this for 15 minutes" in m
        for m in messages_of(done)
    )
    assertContains(done, "Undo the cancellation")
    (request,) = stripe_cancellations()
    assert request.status == OutboxItem.Status.PENDING
    assert not OutboxItem.objects.due().filter(pk=request.pk).exists()  # not yet
    assert (
        OutboxItem.objects.due(timezone.now() + timedelta(minutes=16))
        .filter(pk=request.pk)
        .exists()
    )
    assert delivery.deliver(request.pk) is None  # a sweep before the window ends does nothing

    undone = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE
    assert "Your sponsorship is back, exactly as it was." in messages_of(undone)
    request.refresh_from_db()
    assert request.status == OutboxItem.Status.WITHDRAWN  # Stripe is never asked


def test_the_undo_is_the_cancellations_recorded_window_not_its_note(client, owner):
    """Staff recording a sponsor's request (whatever the note says) is no undoable
    cancellation: the event's ``undoable_until`` decides, not its text."""
    sponsorship = paid_by_card(owner)
    lifecycle.cancel(sponsorship, UserFactory(is_staff=True), "cancelled by the sponsor")
    (cancellation,) = sponsorship.events.filter(to_status=S.CANCELLED)
    assert cancellation.undoable_until is None
    mail = OutboxItem.objects.get(kind=STATUS_MAIL)
    assert mail.payload == {"sponsorship_id": sponsorship.pk, "what": "cancelled"}  # no undo
    page = client.get(sponsorship.organisation.get_absolute_url())
    assertNotContains(page, "Undo the cancellation")
    refused = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assert any("can no longer be undone" in m for m in messages_of(refused))


def test_a_note_added_after_the_cancellation_does_not_take_the_undo_away(client, owner):
    """A late Stripe webhook writes its own line in the history; the sponsor's undo still
    finds the cancellation and the state it recorded."""
    sponsorship = paid_by_card(owner)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    sponsorship.refresh_from_db()
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        note="payment intent pi_late linked",
    )
    assert sponsorship.events.last().note == "payment intent pi_late linked"
    undone = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE
    assert "Your sponsorship is back, exactly as it was." in messages_of(undone)
    assert sponsorship.events.last().from_status == S.CANCELLED


def test_once_stripe_was_asked_the_cancellation_cannot_be_undone(client, owner):
    sponsorship = paid_by_card(owner)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    stripe_cancellations().update(status=OutboxItem.Status.DONE, attempts=1)
    refused = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assert any("Stripe has already ended the subscription" in m for m in messages_of(refused))


def test_removing_a_logo_asks_first_then_shows_the_wordmark(client, owner):
    organisation = owner.organisations.get()
    organisation.logo.save("acme.svg", ContentFile(b"<svg xmlns='http://www.w3.org/2000/svg'/>"))
    url = f"/sponsors/organisations/{organisation.pk}/logo/remove/"
    page = client.get(url)
    assertContains(page, "The logo file is deleted from this site.")
    organisation.refresh_from_db()
    assert organisation.logo
    done = client.post(url, follow=True)
    organisation.refresh_from_db()
    assert not organisation.logo
    assert any("The logo was removed" in m for m in messages_of(done))


def test_strangers_cannot_reach_the_confirmation_pages(client, owner):
    sponsorship = applied(owner)
    client.force_login(UserFactory())
    assert client.get(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/").status_code == 404
    organisation = owner.organisations.get()
    assert client.get(f"/sponsors/organisations/{organisation.pk}/logo/remove/").status_code == 404
    assert client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/").status_code == 404
