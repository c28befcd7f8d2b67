"""Sponsors admin actions that change state need the change permission, not just view."""

import pytest
from django.contrib.auth.models import Permission

from sponsors.models import Organisation, Sponsorship
from sponsors.services import applications, moderation
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db
SPONSORSHIP_ACTIONS = ["approve", "reject", "cancel"]


def staff_with(*codenames):
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return staff


@pytest.fixture
def application():
    return applications.apply(
        OrganisationFactory(), TierFactory(), Sponsorship.Payment.INVOICE, None
    )


@pytest.mark.parametrize("action", SPONSORSHIP_ACTIONS)
def test_a_view_only_staff_user_cannot_change_a_sponsorships_state(client, application, action):
    client.force_login(staff_with("view_sponsorship"))
    changelist = client.get("/admin/sponsors/sponsorship/")
    assert changelist.status_code == 200
    assert f'<option value="{action}">' not in changelist.content.decode()
    client.post(
        "/admin/sponsors/sponsorship/", {"action": action, "_selected_action": [application.pk]}
    )
    application.refresh_from_db()
    assert application.status == Sponsorship.Status.APPLIED
    assert application.events.count() == 1


@pytest.mark.parametrize(
    "action, status", [("approve", "awaiting_payment"), ("reject", "rejected")]
)
def test_staff_who_may_change_sponsorships_can(
    client, application, monkeypatch, action, status, django_capture_on_commit_callbacks
):
    client.force_login(staff_with("view_sponsorship", "change_sponsorship"))
    with django_capture_on_commit_callbacks(execute=False):  # the invoice task is not run here
        response = client.post(
            "/admin/sponsors/sponsorship/",
            {"action": action, "_selected_action": [application.pk]},
        )
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.status == status


def test_a_view_only_staff_user_cannot_publish_profile_changes(client):
    organisation = OrganisationFactory(name="Acme")
    moderation.propose_profile_change(organisation, name="Hijacked")
    client.force_login(staff_with("view_organisation"))
    page = client.get("/admin/sponsors/organisation/").content.decode()
    assert 'value="approve_profile_changes"' not in page
    client.post(
        "/admin/sponsors/organisation/",
        {"action": "approve_profile_changes", "_selected_action": [organisation.pk]},
    )
    assert Organisation.objects.get().name == "Acme"

    client.force_login(staff_with("view_organisation", "change_organisation"))
    client.post(
        "/admin/sponsors/organisation/",
        {"action": "approve_profile_changes", "_selected_action": [organisation.pk]},
    )
    assert Organisation.objects.get().name == "Hijacked"
