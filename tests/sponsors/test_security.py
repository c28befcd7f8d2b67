"""A sponsor sees and edits only their own organisation; uploads are sanitised."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import InMemoryUploadedFile, SimpleUploadedFile
from django.http.multipartparser import MultiPartParser
from django.test import Client
from django.test.client import BOUNDARY, encode_multipart
from PIL import Image
from pytest_django.asserts import assertContains, assertNotContains

from sponsors.logos import process_logo, sanitise_svg
from sponsors.models import Invitation, Organisation
from sponsors.services import applications, lifecycle, moderation
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    owner, colleague, stranger = UserFactory(), UserFactory(), UserFactory()
    organisation = OrganisationFactory(managers=[owner, colleague])
    sponsorship = applications.apply(organisation, TierFactory(), "card_annual", owner)
    return {
        "owner": owner,
        "colleague": colleague,
        "stranger": stranger,
        "org": organisation,
        "sponsorship": sponsorship,
    }


def sponsor_urls(org, sponsorship):
    return [
        ("get", f"/sponsors/organisations/{org.pk}/", {}),
        ("get", f"/sponsors/sponsorships/{sponsorship.pk}/pay/", {}),
        (
            "post",
            f"/sponsors/organisations/{org.pk}/profile/",
            {"name": "Hijacked", "website": "https://evil.example"},
        ),
        ("post", f"/sponsors/organisations/{org.pk}/invite/", {"email": "evil@example.org"}),
        ("post", f"/sponsors/organisations/{org.pk}/logo/", {}),
        ("get", f"/sponsors/sponsorships/{sponsorship.pk}/renew/", {}),
        (
            "post",
            f"/sponsors/sponsorships/{sponsorship.pk}/renew/card/",
            {
                "stage": "setup",
                "amount": "50000.00",
                "currency": "EUR",
                "payment_method": "card_once",
            },
        ),
        ("post", f"/sponsors/sponsorships/{sponsorship.pk}/cancel/", {}),
    ]


@pytest.mark.parametrize(
    "who", ["anonymous", "stranger", "colleague", "owner", "staff_not_manager"]
)
def test_permission_matrix_over_every_sponsor_url(client, world, who):
    if who == "staff_not_manager":
        client.force_login(UserFactory(is_staff=True))
    elif who != "anonymous":
        client.force_login(world[who])
    allowed = who in ("owner", "colleague")
    for method, url, data in sponsor_urls(world["org"], world["sponsorship"]):
        if url.endswith("/cancel/"):
            continue  # checked last: it ends the sponsorship
        response = getattr(client, method)(url, data)
        if who == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
        elif allowed:
            assert response.status_code in (200, 302), url
        else:
            assert response.status_code == 404, url
    org = Organisation.objects.get()
    assert ("Hijacked" in str(org.pending_changes)) == allowed
    assert Invitation.objects.exists() == allowed
    cancel = client.post(f"/sponsors/sponsorships/{world['sponsorship'].pk}/cancel/")
    world["sponsorship"].refresh_from_db()
    assert (world["sponsorship"].status == "cancelled") == allowed
    if not allowed and who != "anonymous":
        assert cancel.status_code == 404


def test_dashboard_lists_only_own_organisations(client, world):
    other = OrganisationFactory(name="Someone Else Ltd")
    client.force_login(world["owner"])
    html = client.get("/sponsors/dashboard/").content.decode()
    assert world["org"].name in html and other.name not in html


def test_profile_changes_wait_for_staff_approval(client, world):
    client.force_login(world["owner"])
    client.post(
        f"/sponsors/organisations/{world['org'].pk}/profile/",
        {"name": "New Name", "website": "https://new.example", "description": "x"},
    )
    org = Organisation.objects.get()
    assert org.name != "New Name" and org.pending_changes["name"] == "New Name"
    moderation.approve_profile_change(org)
    assert Organisation.objects.get().name == "New Name"


def test_a_profile_change_lists_only_the_fields_that_change(client, world):
    """Issue 49: the pending change listed the unchanged name and website as changes."""
    org = world["org"]
    client.force_login(world["owner"])
    url = f"/sponsors/organisations/{org.pk}/profile/"
    same = {"name": org.name, "website": org.website, "description": org.description}
    page = client.post(url, {**same, "description": "Our new words"}, follow=True)
    assert Organisation.objects.get().pending_changes == {"description": "Our new words"}
    assertContains(page, '<p class="notice" id="pending-changes">Changes waiting for staff approval: Description → “Our new words”</p>', html=True)  # fmt: skip
    # Set back to the public text, the description is no longer a change.
    page = client.post(url, same, follow=True)
    assert Organisation.objects.get().pending_changes == {}
    assertContains(page, "Nothing to review: the public profile already says this.")
    assertNotContains(page, "Changes waiting for staff approval")


def test_a_refused_profile_change_comes_back_as_typed_with_its_errors(client, world):
    client.force_login(world["owner"])
    response = client.post(
        f"/sponsors/organisations/{world['org'].pk}/profile/",
        {"name": "", "website": "not a website", "description": "Our new words"},
    )
    assertContains(response, "please correct the fields marked below", status_code=400)
    assertContains(response, "Our new words", status_code=400)
    assertContains(response, "Enter a valid URL.", status_code=400)
    assert Organisation.objects.get().pending_changes in ({}, None)


def test_inviting_someone_who_already_manages_sends_nothing(client, world):
    client.force_login(world["owner"])
    response = client.post(
        f"/sponsors/organisations/{world['org'].pk}/invite/",
        {"email": world["owner"].email.upper()},
        follow=True,
    )
    assertContains(response, f"{world['owner'].email.upper()} already manages")
    assert not Invitation.objects.exists()


def test_invitation_is_only_for_its_address(client, world):
    invitation = Invitation.objects.create(
        organisation=world["org"], email="new@example.org", invited_by=world["owner"]
    )
    client.force_login(world["stranger"])
    client.get(f"/sponsors/invitations/{invitation.token}/")
    assert not world["org"].managers.filter(pk=world["stranger"].pk).exists()
    invited = UserFactory(email="new@example.org")
    client.force_login(invited)
    client.get(f"/sponsors/invitations/{invitation.token}/")
    assert world["org"].managers.filter(pk=invited.pk).exists()


HOSTILE_SVG = b"""<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(3)"/></body></foreignObject>
  <a href="javascript:alert(4)"><rect width="5" height="5" onclick="alert(5)"/></a>
  <image href="https://tracker.example/pixel.png"/>
  <use xlink:href="https://evil.example/sprite.svg#x"/>
  <rect width="10" height="10" fill="url(https://evil.example/p.svg#g)"/>
  <circle cx="5" cy="5" r="4" fill="#0b6e8a"/>
</svg>"""


def test_svg_logos_lose_scripts_handlers_and_external_references():
    clean = sanitise_svg(HOSTILE_SVG).decode()
    for bad in [
        "script",
        "onload",
        "onerror",
        "onclick",
        "foreignObject",
        "javascript",
        "tracker.example",
        "evil.example",
    ]:
        assert bad not in clean, bad
    assert "<circle" in clean and 'fill="#0b6e8a"' in clean


def test_entity_expansion_is_refused():
    bomb = b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    with pytest.raises(ValidationError):
        sanitise_svg(bomb)


def test_raster_logos_get_thumbnails_and_limits():
    buffer = io.BytesIO()
    Image.new("RGB", (800, 400), "navy").save(buffer, format="PNG")
    _clean, thumbnail = process_logo(SimpleUploadedFile("logo.png", buffer.getvalue()), height=90)
    assert Image.open(thumbnail).height == 90
    with pytest.raises(ValidationError, match="PNG, JPEG, WebP or SVG"):
        process_logo(SimpleUploadedFile("logo.gif", b"GIF89a not really"))
    with pytest.raises(ValidationError, match="limit"):
        process_logo(SimpleUploadedFile("big.png", b"x" * (1024 * 1024 + 1)))


def test_logo_upload_through_the_dashboard(client, world):
    client.force_login(world["owner"])
    client.post(
        f"/sponsors/organisations/{world['org'].pk}/logo/",
        {"logo": SimpleUploadedFile("l.svg", HOSTILE_SVG)},
    )
    org = Organisation.objects.get()
    assert org.logo.name.endswith(".svg")
    assert b"script" not in org.logo.read()


def png_of(size: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "navy").save(buffer, format="PNG")
    return buffer.getvalue().ljust(size, b"\0")


class UnreadableUpload(SimpleUploadedFile):
    """An upload that fails the test if its bytes are read."""

    def read(self, *args):
        raise AssertionError("the logo's bytes were read before its size was checked")


def test_an_oversized_logo_is_refused_by_its_size_before_it_is_read():
    upload = UnreadableUpload("big.png", b"")
    upload.size = 250 * 1024 * 1024
    with pytest.raises(ValidationError, match=r"The logo is 250 MiB; the limit is 1 MiB\."):
        process_logo(upload)


def test_an_upload_over_the_limit_is_refused_before_the_request_body_is_parsed(
    client, world, monkeypatch
):
    parsed = []
    real_parse = MultiPartParser.parse
    monkeypatch.setattr(MultiPartParser, "parse", lambda self: parsed.append(1) or real_parse(self))
    client.force_login(world["owner"])
    response = client.post(
        f"/sponsors/organisations/{world['org'].pk}/logo/",
        {"logo": SimpleUploadedFile("big.png", png_of(3 * 1024 * 1024))},
        follow=True,
    )
    assert parsed == []  # refused on Content-Length: no byte of the body was read
    assert response.status_code == 200
    assertContains(response, "a logo may be up to 1024 KiB", html=False)
    assert not Organisation.objects.get().logo


def test_a_logo_just_over_the_limit_is_refused_without_reading_it(client, world, monkeypatch):
    body = encode_multipart(
        BOUNDARY, {"logo": SimpleUploadedFile("big.png", png_of(1024 * 1024 + 1))}
    )
    reads = []
    monkeypatch.setattr(
        InMemoryUploadedFile, "read", property(lambda self: reads.append(1) or self.file.read)
    )
    client.force_login(world["owner"])
    response = client.post(
        f"/sponsors/organisations/{world['org'].pk}/logo/",
        body,
        content_type=f"multipart/form-data;boundary={BOUNDARY}",  # sent as it is
        follow=True,
    )
    assert reads == []
    assertContains(response, "The logo is 1025 KiB; the limit is 1 MiB.", status_code=400)
    assert not Organisation.objects.get().logo


def test_a_logo_upload_still_needs_its_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["owner"])
    response = client.post(
        f"/sponsors/organisations/{world['org'].pk}/logo/",
        {"logo": SimpleUploadedFile("l.svg", HOSTILE_SVG)},
    )
    assert response.status_code == 403
    assert not Organisation.objects.get().logo


def test_only_open_sponsorships_offer_cancel(client, world):
    client.force_login(world["owner"])
    cancel_url = f"/sponsors/sponsorships/{world['sponsorship'].pk}/cancel/"
    page = f"/sponsors/organisations/{world['org'].pk}/"
    assertContains(client.get(page), f'href="{cancel_url}"', count=1)
    lifecycle.reject(world["sponsorship"], None)
    assertNotContains(client.get(page), f'href="{cancel_url}"')


def test_an_application_with_an_oversized_logo_is_refused_before_it_is_parsed(client, monkeypatch):
    parsed = []
    real_parse = MultiPartParser.parse
    monkeypatch.setattr(MultiPartParser, "parse", lambda self: parsed.append(1) or real_parse(self))
    tier = TierFactory()
    client.force_login(UserFactory())
    response = client.post(
        f"/sponsors/apply/{tier.pk}/",
        {
            "payment_method": "invoice",
            "agreement_payment": "invoice",
            "org-name": "Big Logo Ltd",
            "org-website": "https://big.example",
            "org-billing_name": "Accounts",
            "org-billing_email": "billing@big.example",
            "org-logo_upload": SimpleUploadedFile("big.png", png_of(2 * 1024 * 1024)),
        },
        follow=True,
    )
    assert parsed == []
    assertContains(response, "a logo may be up to 1024 KiB")
    assert not Organisation.objects.filter(name="Big Logo Ltd").exists()
