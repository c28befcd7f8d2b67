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
from payments.gateway import CANCEL_SUBSCRIPTION
from sponsors.mail import STATUS_MAIL
from sponsors.models import Sponsorship, SponsorshipEvent
from sponsors.services import applications, lifecycle
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
        status=S.ACTIVE,
        paid_at=timezone.now(),
        stripe_subscription_id="sub_1",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate() + timedelta(days=365),
    )
    return sponsorship


def stripe_cancellations():
    return OutboxItem.objects.filter(kind=CANCEL_SUBSCRIPTION, payload={"subscription_id": "sub_1"})


def test_a_paid_years_cancel_stops_the_renewal_at_stripe_after_the_undo_window(client, owner):
    """Issue 48: "cancel" of a running, paid year stops its renewal; the sponsor stays
    listed until the paid term ends, and Stripe is asked only once the window passed."""
    sponsorship = paid_by_card(owner)
    url = f"/sponsors/sponsorships/{sponsorship.pk}/cancel/"
    page = client.get(url)
    assertContains(page, "Stripe stops the yearly card renewal. The paid term is not refunded.")
    assertContains(page, "for the card renewal, within 15 minutes; later, renew from the dashboard")
    done = client.post(url, follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE and sponsorship.renewal_stopped_at
    assert any("will not renew" in m for m in messages_of(done))
    assertContains(done, "Renew as before")
    (request,) = stripe_cancellations()
    assert request.status == OutboxItem.Status.PENDING
    assert not OutboxItem.objects.due().filter(pk=request.pk).exists()  # not yet
    assert (
        OutboxItem.objects.due(timezone.now() + timedelta(minutes=16))
        .filter(pk=request.pk)
        .exists()
    )
    assert delivery.deliver(request.pk) is None  # a sweep before the window ends does nothing

    resumed = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/resume-renewal/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.ACTIVE and sponsorship.renewal_stopped_at is None
    assert (
        "The renewal is back, as it was: a mail confirms it to the billing contact."
        in messages_of(resumed)
    )
    request.refresh_from_db()
    assert request.status == OutboxItem.Status.WITHDRAWN  # Stripe is never asked
    # "Renew as before" is a step the sponsor hears of, as stopping the renewal was
    resumed_mail = OutboxItem.objects.get(kind=STATUS_MAIL, payload__what="renewal_resumed")
    assert resumed_mail.payload == {"sponsorship_id": sponsorship.pk, "what": "renewal_resumed"}


def test_the_undo_is_the_cancellations_recorded_window_not_its_note(client, owner):
    """Staff recording a sponsor's request (whatever the note says) is no undoable
    cancellation: the event's ``undoable_until`` decides, not its text."""
    sponsorship = paid_by_card(owner)
    lifecycle.cancel(sponsorship, UserFactory(is_staff=True), "cancelled by the sponsor")
    (cancellation,) = sponsorship.events.filter(to_status=S.CANCELLED)
    assert cancellation.undoable_until is None
    mail = OutboxItem.objects.exclude(payload__what="applied").get(kind=STATUS_MAIL)
    assert mail.payload == {"sponsorship_id": sponsorship.pk, "what": "cancelled"}  # no undo
    page = client.get(sponsorship.organisation.get_absolute_url())
    assertNotContains(page, "Undo the cancellation")
    refused = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.status == S.CANCELLED
    assert any("can no longer be undone" in m for m in messages_of(refused))


def test_once_stripe_was_asked_the_card_renewal_cannot_be_taken_back(client, owner):
    sponsorship = paid_by_card(owner)
    client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    stripe_cancellations().update(status=OutboxItem.Status.DONE, attempts=1)
    refused = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/resume-renewal/", follow=True)
    sponsorship.refresh_from_db()
    assert sponsorship.renewal_stopped_at is not None
    assert any("Stripe has already ended the card renewal" in m for m in messages_of(refused))


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
