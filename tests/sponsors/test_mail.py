"""Sponsors' mail: texts from templates, sent by Celery tasks after the commit."""

import pytest
from django.core import mail

from sponsors.models import Invitation, Sponsorship
from sponsors.services import applications, lifecycle
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory

pytestmark = pytest.mark.django_db


def test_a_state_change_mails_the_billing_contact_and_managers(
    settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://portal.example.org"
    manager = UserFactory(email="cto@acme.example")
    organisation = OrganisationFactory(
        name="Acme & Sons", billing_email="billing@acme.example", managers=[manager]
    )
    sponsorship = applications.apply(organisation, TierFactory(), Sponsorship.Payment.INVOICE, None)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.reject(sponsorship, UserFactory(is_staff=True))
    [message] = mail.outbox
    assert message.subject == "About your sponsorship application"
    assert message.to == ["billing@acme.example", "cto@acme.example"]
    assert message.body == (
        "Acme & Sons: Gold sponsor is now rejected.\n\n"
        "Manage it at https://portal.example.org/sponsors/dashboard/\n"
    )


def test_nothing_is_mailed_when_the_transaction_rolls_back(django_capture_on_commit_callbacks):
    sponsorship = applications.apply(OrganisationFactory(), TierFactory(), "invoice", None)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        lifecycle.reject(sponsorship, None)
    assert mail.outbox == [] and callbacks  # sent only once the commit has happened


def test_an_invitation_mail_carries_the_link_on_the_public_site(
    client, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://portal.example.org"
    owner = UserFactory(email="owner@acme.example")
    organisation = OrganisationFactory(name="Acme & Sons", managers=[owner])
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/sponsors/organisations/{organisation.pk}/invite/", {"email": "new@acme.example"}
        )
    invitation = Invitation.objects.get()
    [message] = mail.outbox
    assert message.to == ["new@acme.example"]
    assert message.subject == "Manage Acme & Sons's sponsorship"
    assert message.body == (
        "owner@acme.example invites you to manage Acme & Sons: "
        f"https://portal.example.org/sponsors/invitations/{invitation.token}/\n"
    )
