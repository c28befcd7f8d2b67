"""Display names: set on the profile page, shown with comments instead of the e-mail
address (issue #18)."""

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains

from core.models import Profile
from foundation.models import DocumentComment
from tests.foundation.factories import DocumentVersionFactory, NewsPostFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def reader(client):
    user = UserFactory(email="ursula@example.org")
    client.force_login(user)
    return user


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/profile/")
    response = client.post("/accounts/profile/", {"display_name": "Intruder"})
    assert response.status_code == 302 and not Profile.objects.exists()


def test_the_header_links_to_the_profile(client, reader):
    assertContains(client.get("/"), '<a href="/accounts/profile/">Profile</a>', html=True)


def test_a_display_name_is_shown_with_a_governance_comment(client, reader):
    version = DocumentVersionFactory(number=1)
    DocumentComment.objects.create(version=version, author=reader, body="Support this.")
    url = "/about/governance/bylaws/v1/"
    assertNotContains(client.get(url), "u…")
    response = client.post("/accounts/profile/", {"display_name": "  Ursula   K. "})
    assert response.status_code == 302
    assert Profile.objects.get(user=reader).display_name == "Ursula K."
    page = client.get(url)
    assertContains(page, "Ursula K. on", count=1)
    assertNotContains(page, "ursula@example.org")
    assertNotContains(page, "u…")


def test_a_display_name_is_shown_with_a_news_comment(client, reader):
    Profile.objects.create(user=reader, display_name="Ursula")
    post = NewsPostFactory()
    client.post(f"{post.get_absolute_url()}comment/", {"body": "Nice."})
    assertContains(Client().get(post.get_absolute_url()), "Ursula on", count=1)


def test_without_a_display_name_a_commenter_is_a_reader(client, reader):
    version = DocumentVersionFactory(number=1)
    DocumentComment.objects.create(version=version, author=reader, body="Support this.")
    page = client.get("/about/governance/bylaws/v1/")
    assertContains(page, "A reader on", count=1)


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("ursula@example.org", "A display name cannot be an e-mail address."),
        ("Ursula (ursula@example.org)", "A display name cannot be an e-mail address."),
        ("Ur\u0007sula", "Use letters, numbers and punctuation only."),
        ("Ur\u202esula", "Use letters, numbers and punctuation only."),
        ("U", "Use at least 2 characters, or leave it empty."),
        ("x" * 51, "Ensure this value has at most 50 characters (it has 51)."),
    ],
)
def test_invalid_names_are_refused_and_nothing_changes(client, reader, name, error):
    Profile.objects.create(user=reader, display_name="Ursula")
    response = client.post("/accounts/profile/", {"display_name": name})
    assert response.status_code == 400
    assertContains(
        response,
        f'<div class="notice notice-danger" role="alert" id="display-name-errors">{error}</div>',
        html=True,
        status_code=400,
    )
    assert Profile.objects.get(user=reader).display_name == "Ursula"


def test_the_form_needs_its_csrf_token(reader):
    client = Client(enforce_csrf_checks=True)
    client.force_login(reader)
    response = client.post("/accounts/profile/", {"display_name": "Ursula"})
    assert response.status_code == 403
    assert not Profile.objects.exists()
