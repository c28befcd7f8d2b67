"""Sponsor mails say what the site says (issue 33): one word for one state (a cancelled
application with nothing paid is "withdrawn", on the page and in the mail), undoing mails
in the page's words, one mail per event ("Renew as before" included), and a refused
application keeps its logo."""

import io

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image
from pytest_django.asserts import assertContains

from sponsors.models import Organisation, Sponsorship
from sponsors.services import applications, lifecycle, recording
from sponsors.terms import long_date
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.test_agreement import application

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client, settings):
    settings.SITE_URL = "https://portal.example.org"
    organisation = OrganisationFactory(name="Acme", billing_email="billing@acme.example")
    manager = organisation.managers.get()
    client.force_login(manager)
    return manager


def applied(owner, payment="card_annual"):
    return applications.apply(owner.organisations.get(), TierFactory(name="Gold"), payment, owner)


def test_a_withdrawal_and_its_undo_are_mailed_in_the_pages_words(
    client, owner, django_capture_on_commit_callbacks
):
    sponsorship = applied(owner)
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/", follow=True)
    assertContains(done, "was withdrawn")
    [withdrawn] = mail.outbox
    assert withdrawn.subject == "Your sponsorship application was withdrawn"
    assert withdrawn.body.startswith(
        f"Acme: your application for {sponsorship.title} was withdrawn, and its place in the "
        "tier is released. You can undo this for 15 minutes on your organisation's page, "
        f"https://portal.example.org/sponsors/organisations/{sponsorship.organisation.pk}/"
    )
    assert "cancel" not in withdrawn.subject.lower() + withdrawn.body.lower()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        undone = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    assertContains(undone, "Your application is back, exactly as it was.")
    [back] = mail.outbox
    assert back.subject == "Your sponsorship application is back"
    assert back.body.startswith(
        f"Acme: your application for {sponsorship.title} is back, exactly as it was"
    )


def test_undoing_a_cancellation_mails_in_the_pages_words(
    client, owner, django_capture_on_commit_callbacks
):
    sponsorship = applied(owner)
    Sponsorship.objects.filter(pk=sponsorship.pk).update(paid_at="2026-11-01T10:00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
    [cancelled] = mail.outbox
    assert cancelled.subject == "Your sponsorship was cancelled"
    assert "was cancelled: it no longer appears on the supporters page and will not renew." in (
        cancelled.body
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        undone = client.post(f"/sponsors/sponsorships/{sponsorship.pk}/undo-cancel/", follow=True)
    assertContains(undone, "Your sponsorship is back, exactly as it was.")
    [back] = mail.outbox
    assert back.subject == "Your sponsorship is back"
    assert "is back, exactly as it was: its cancellation was undone." in back.body


@pytest.mark.parametrize(
    "paid, subject",
    [(False, "Your sponsorship is approved and awaiting payment"),
     (True, "Your sponsorship is active: thank you!")],
)  # fmt: skip
def test_approval_sends_one_mail(owner, django_capture_on_commit_callbacks, paid, subject):
    sponsorship = applied(owner, payment="card_annual")
    if paid:
        Sponsorship.objects.filter(pk=sponsorship.pk).update(paid_at="2026-11-01T10:00:00Z")
        sponsorship.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    assert [m.subject for m in mail.outbox] == [subject]


def png(colour="navy") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), colour).save(buffer, format="PNG")
    return SimpleUploadedFile("acme-logo.png", buffer.getvalue(), content_type="image/png")


def test_a_refused_application_keeps_the_chosen_logo(client, settings, tmp_path):
    client.force_login(UserFactory(email="cto@acme.test"))
    tier = TierFactory(name="Gold")
    url = f"/sponsors/apply/{tier.pk}/"
    refused = client.post(url, {**application(tier, accept_agreement=""), "org-logo_upload": png()})
    assert refused.status_code == 400
    assertContains(refused, "Accept the agreement to apply; nothing was recorded.", status_code=400)
    assertContains(refused, "Your logo <code>acme-logo.png</code> is kept", status_code=400)
    html = refused.content.decode()
    assert 'src="data:image/png;base64,' in html
    token = html.split('name="org-held_logo" value="')[1].split('"')[0]
    assert not Organisation.objects.exists()
    # Sent again, ticked, without choosing the file again: the kept logo is the logo.
    accepted = client.post(url, {**application(tier), "org-held_logo": token})
    assert accepted.status_code == 302
    organisation = Organisation.objects.get()
    assert organisation.logo.name.endswith(".png") and organisation.logo_thumbnail
    with organisation.logo.open("rb") as handle:
        assert Image.open(handle).size == (40, 20)


def test_a_kept_logo_is_its_owners_only_and_a_bad_one_is_not_kept(client):
    someone = UserFactory(email="someone@else.test")
    tier = TierFactory(name="Gold")
    url = f"/sponsors/apply/{tier.pk}/"
    client.force_login(someone)
    refused = client.post(url, {**application(tier, accept_agreement=""), "org-logo_upload": png()})
    token = refused.content.decode().split('name="org-held_logo" value="')[1].split('"')[0]
    client.force_login(UserFactory(email="cto@acme.test"))
    client.post(url, {**application(tier), "org-held_logo": token})
    assert not Organisation.objects.get().logo  # another user's token names nothing
    junk = SimpleUploadedFile("logo.png", b"not an image", content_type="image/png")
    bad = client.post(url, {**application(tier, accept_agreement="", **{"org-name": "Other"}),
                            "org-logo_upload": junk})  # fmt: skip
    assertContains(bad, "The logo must be a PNG, JPEG, WebP or SVG image.", status_code=400)
    assert 'name="org-held_logo"' not in bad.content.decode()


@pytest.mark.parametrize("payment", ["invoice", "card_annual"])
def test_renew_as_before_is_mailed_as_stopping_the_renewal_was(
    client, owner, payment, django_capture_on_commit_callbacks
):
    """Stopping the renewal is mailed; taking the stop back ("Renew as before") is mailed
    too, with the end of the term and the next term by its dates."""
    sponsorship = applied(owner, payment)
    recording.record_payment(
        sponsorship.pk,
        stripe_id="in_paid",
        amount_minor=5_000_000,
        currency="EUR",
        paid_at=timezone.now(),
    )
    lifecycle.approve(sponsorship, UserFactory(is_staff=True))
    if payment == "card_annual":
        Sponsorship.objects.filter(pk=sponsorship.pk).update(stripe_subscription_id="sub_1")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/sponsors/sponsorships/{sponsorship.pk}/cancel/")
        client.post(f"/sponsors/sponsorships/{sponsorship.pk}/resume-renewal/")
    sponsorship.refresh_from_db()
    term = sponsorship.current_term
    assert [m.subject for m in mail.outbox if "billing@acme.example" in m.to] == [
        "Your sponsorship will not renew",
        "Your sponsorship will renew as before",
    ]
    body = mail.outbox[-1].body
    assert (
        f"Acme: Gold sponsor will renew as before. The current term ends on {long_date(term.ends_on)}"
        in body
    )
    if payment == "card_annual":
        assert (
            f"Stripe charges the card for the next term, {term.following()}, on {long_date(term.following().starts_on)}"
            in body
        )
    else:
        assert (
            f"you renew for the next term, {term.following()}, from your organisation's page"
            in body
        )
