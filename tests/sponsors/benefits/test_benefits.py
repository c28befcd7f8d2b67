"""Sponsor benefits: what each sponsorship is owed, what the sponsor must hand over, reminders."""

import io
from datetime import date

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from pytest_django.asserts import assertContains

from sponsors.benefits import services
from sponsors.benefits.admin import DeliveryForm
from sponsors.benefits.models import Benefit, Delivery
from sponsors.models import Sponsorship
from tests.foundation.factories import UserFactory
from tests.sponsors.benefits.factories import BenefitFactory, SponsorshipFactory

pytestmark = pytest.mark.django_db
State = Delivery.State


def png(size=(40, 20)):
    buffer = io.BytesIO()
    Image.new("RGB", size, "navy").save(buffer, format="PNG")
    return SimpleUploadedFile("acme.png", buffer.getvalue(), content_type="image/png")


def jpeg():
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), "navy").save(buffer, format="JPEG")
    return SimpleUploadedFile("acme.jpg", buffer.getvalue(), content_type="image/jpeg")


@pytest.fixture
def sponsorship():
    sponsorship = SponsorshipFactory()
    tier = sponsorship.tier
    BenefitFactory(
        tier=tier, name="Logo on the supporters page", asset=Benefit.Asset.LOGO, due_days=14
    )
    BenefitFactory(
        tier=tier, name="Thank-you blog post", asset=Benefit.Asset.TEXT, text_max_length=40
    )
    BenefitFactory(tier=tier, name="Seat on the advisory list", due_days=60)
    return sponsorship


def test_an_active_sponsorship_is_owed_each_benefit_of_its_tier_once(sponsorship):
    assert services.ensure_all_deliveries() == 3
    assert services.ensure_all_deliveries() == 0
    owed = {d.benefit.name: (d.state, d.due_on) for d in sponsorship.benefit_deliveries.all()}
    assert owed == {
        "Logo on the supporters page": (State.WAITING, date(2026, 11, 15)),
        "Thank-you blog post": (State.WAITING, date(2026, 12, 1)),
        "Seat on the advisory list": (State.TO_DO, date(2026, 12, 31)),
    }


def test_an_application_is_owed_nothing_yet(sponsorship):
    Sponsorship.objects.filter(pk=sponsorship.pk).update(status=Sponsorship.Status.APPLIED)
    assert services.ensure_all_deliveries() == 0


def test_the_sponsor_uploads_a_logo_in_an_accepted_format(client, sponsorship):
    client.force_login(sponsorship.organisation.managers.get())
    url = f"/sponsors/sponsorships/{sponsorship.pk}/benefits/"
    page = client.get(url)
    assert page.status_code == 200
    assert "Logo (SVG, PNG)" in page.content.decode()
    logo = sponsorship.benefit_deliveries.get(benefit__asset=Benefit.Asset.LOGO)
    response = client.post(url, {"delivery": logo.pk, "logo": png()}, follow=True)
    assert "is with our staff now" in response.content.decode()
    logo.refresh_from_db()
    assert logo.state == State.TO_DO
    assert logo.asset_file.name.endswith(".png")


def test_a_logo_in_another_format_is_refused_with_the_reason(client, sponsorship):
    client.force_login(sponsorship.organisation.managers.get())
    url = f"/sponsors/sponsorships/{sponsorship.pk}/benefits/"
    client.get(url)
    logo = sponsorship.benefit_deliveries.get(benefit__asset=Benefit.Asset.LOGO)
    response = client.post(url, {"delivery": logo.pk, "logo": jpeg()})
    assert response.status_code == 400
    assert "This benefit needs the logo as SVG, PNG; this file is JPG." in response.content.decode()
    logo.refresh_from_db()
    assert (logo.state, logo.asset_file.name) == (State.WAITING, "")


def test_a_text_over_its_length_is_refused(client, sponsorship):
    client.force_login(sponsorship.organisation.managers.get())
    url = f"/sponsors/sponsorships/{sponsorship.pk}/benefits/"
    client.get(url)
    text = sponsorship.benefit_deliveries.get(benefit__asset=Benefit.Asset.TEXT)
    response = client.post(url, {"delivery": text.pk, "text": "x" * 41})
    assert response.status_code == 400
    assert "at most 40" in response.content.decode()
    text.refresh_from_db()
    assert text.asset_text == ""


def test_a_long_received_text_is_shown_cut_on_a_word(client, sponsorship):
    client.force_login(sponsorship.organisation.managers.get())
    url = f"/sponsors/sponsorships/{sponsorship.pk}/benefits/"
    client.get(url)
    text = sponsorship.benefit_deliveries.get(benefit__asset=Benefit.Asset.TEXT)
    words = "MariaDB Foundation sponsors keep the server open for everyone who runs it daily"
    Benefit.objects.filter(pk=text.benefit_id).update(text_max_length=500)
    client.post(url, {"delivery": text.pk, "text": f"{words} and {words}"})
    page = client.get(url).content.decode()
    assert f"“{words}…”" in page


def test_an_upload_declared_too_large_is_refused_before_it_is_read(client, sponsorship):
    client.force_login(sponsorship.organisation.managers.get())
    url = f"/sponsors/sponsorships/{sponsorship.pk}/benefits/"
    client.get(url)
    logo = sponsorship.benefit_deliveries.get(benefit__asset=Benefit.Asset.LOGO)
    # A body truly that large (the site reads what a view left unread before answering:
    # core.uploads.DrainRequestBodyMiddleware), refused on its declared length.
    padding = "x" * (2 * 1024 * 1024)
    response = client.post(
        url, {"delivery": logo.pk, "logo": png(), "padding": padding}, follow=True
    )
    assert "The upload is too large; the limit is 1088 KiB." in response.content.decode()
    # Beyond the site-wide limit the request is refused before any view runs.
    huge = client.post(url, {"delivery": logo.pk}, CONTENT_LENGTH=str(50 * 1024 * 1024))
    assert huge.status_code == 413
    logo.refresh_from_db()
    assert logo.state == State.WAITING


def test_another_organisation_cannot_see_or_fill_the_benefits(client, sponsorship):
    client.force_login(UserFactory())
    url = f"/sponsors/sponsorships/{sponsorship.pk}/benefits/"
    assert client.get(url).status_code == 404
    assert client.post(url, {"delivery": 1, "text": "hi"}).status_code == 404


def test_reminders_go_to_both_sides_once_a_week(
    sponsorship, mailoutbox, django_capture_on_commit_callbacks
):
    services.ensure_all_deliveries()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.send_reminders(today=date(2026, 11, 5)) == (1, 0)
    [sponsor_mail] = mailoutbox
    assert (
        sponsor_mail.subject
        == f"{sponsorship.organisation.name}: we need 1 thing from you for your sponsor benefits"
    )
    assert "Logo on the supporters page: a logo, due 15 November 2026" in sponsor_mail.body
    assert f"/sponsors/sponsorships/{sponsorship.pk}/benefits/" in sponsor_mail.body
    with django_capture_on_commit_callbacks(execute=True):
        assert services.send_reminders(today=date(2026, 11, 6)) == (0, 0)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.send_reminders(today=date(2026, 12, 20)) == (1, 1)
    staff_mail = mailoutbox[-1]
    assert staff_mail.to == ["staff@localhost"]
    assert "Seat on the advisory list" in staff_mail.body


def test_only_staff_who_may_change_deliveries_can_mark_them_delivered(client, sponsorship):
    services.ensure_all_deliveries()
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_delivery"))
    client.force_login(viewer)
    changelist = "/admin/benefits/delivery/"
    assert "Mark the selected benefits delivered" not in client.get(changelist).content.decode()
    ids = list(Delivery.objects.values_list("pk", flat=True))
    client.post(changelist, {"action": "mark_delivered", "_selected_action": ids})
    assert not Delivery.objects.filter(state=State.DELIVERED).exists()

    editor = UserFactory(is_staff=True)
    editor.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_delivery", "change_delivery"])
    )
    client.force_login(editor)
    # issue 48: nothing is "delivered" without evidence (a link or a file)
    refused = client.post(
        changelist, {"action": "mark_delivered", "_selected_action": ids}, follow=True
    )
    assert "3 benefit(s) not marked delivered: add the evidence first" in refused.content.decode()
    assert not Delivery.objects.filter(state=State.DELIVERED).exists()
    Delivery.objects.update(evidence_url="https://mariadb.org/blog/thanks-acme/")
    client.post(changelist, {"action": "mark_delivered", "_selected_action": ids})
    assert Delivery.objects.filter(state=State.DELIVERED).count() == 3
    assert Delivery.objects.filter(delivered_by=editor).count() == 3


def test_a_tier_with_no_tracked_benefits_lists_its_benefits_instead_of_none(client):
    sponsorship = SponsorshipFactory(
        tier__benefits="- Logo on the supporters page\n- Thanks in the news"
    )
    sponsorship.terms = sponsorship.tier.terms()
    sponsorship.save()
    client.force_login(sponsorship.organisation.managers.get())
    page = client.get(f"/sponsors/sponsorships/{sponsorship.pk}/benefits/")
    assert page.status_code == 200
    assert "no benefits to deliver" not in page.content.decode()
    assertContains(page, "Nothing to send us: none of this tier's benefits needs anything from you")
    assertContains(page, "<li>Thanks in the news</li>", html=True)


def test_staff_change_a_state_in_the_admin_only_as_a_verb_would(sponsorship):
    services.ensure_all_deliveries()
    logo = sponsorship.benefit_deliveries.get(benefit__asset=Benefit.Asset.LOGO)
    fields = {"sponsorship": sponsorship.pk, "benefit": logo.benefit_id, "due_on": logo.due_on}

    def saved(**changes):
        form = DeliveryForm(data={**fields, **changes}, instance=Delivery.objects.get(pk=logo.pk))
        return form.is_valid() and form.save(), form.errors.get("__all__", [])

    # Nothing received from the sponsor and no evidence: not delivered.
    assert saved(state=State.DELIVERED) == (
        False,
        ["A benefit is delivered only with evidence: a link or a file showing it given."],
    )
    assert saved(state=State.DELIVERED, evidence_url="https://mariadb.org/blog/thanks-acme/")[0]
    logo.refresh_from_db()
    assert logo.state == State.DELIVERED
    # A delivered benefit stays delivered.
    assert saved(state=State.WAITING) == (
        False,
        ["A delivery does not go from Delivered to Waiting for the sponsor."],
    )
    logo.refresh_from_db()
    assert logo.state == State.DELIVERED
