"""Issue 60, money: staff open a sponsorship's agreement from its admin page; the agreement
names the sponsor's legal billing name and full address, its country included; one
vocabulary ("1 sponsorship approved", "paid by card", never "paid card")."""

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from sponsors.models import Sponsorship
from sponsors.services import applications
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory, TierFactory
from tests.sponsors.test_agreement import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def applied(django_capture_on_commit_callbacks):
    organisation = OrganisationFactory(
        name="Bravo Data",
        billing_name="Bravo Data GmbH",
        billing_address="Hauptstrasse 1\n10115 Berlin",
        billing_country="DE",
        vat_id="DE123456789",
    )
    with django_capture_on_commit_callbacks(execute=True):
        sponsorship = applications.apply(organisation, TierFactory(), "card_once", None)
    Sponsorship.objects.filter(pk=sponsorship.pk).update(accepted_at=timezone.now())
    return Sponsorship.objects.get(pk=sponsorship.pk)


def viewer(*codenames):
    user = UserFactory(is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


def test_staff_open_the_agreement_from_the_sponsorships_admin_page(client, applied):
    client.force_login(viewer("view_sponsorship"))
    page = client.get(f"/admin/sponsors/sponsorship/{applied.pk}/change/")
    url = f"/sponsors/sponsorships/{applied.pk}/agreement.pdf"
    assertContains(page, f'<a href="{url}">Agreement accepted on', html=False)
    text = pdf_text(client.get(url))
    assert "Sponsor: Bravo Data" in text
    assert "Legal name: Bravo Data GmbH" in text
    assert "Hauptstrasse 1" in text and "10115 Berlin" in text and "Germany" in text
    assert "VAT id: DE123456789" in text
    # staff without the permission, and a signed-in stranger, get nothing
    for user in (UserFactory(is_staff=True), UserFactory()):
        client.force_login(user)
        assert client.get(url).status_code == 404


def test_the_admin_says_none_accepted_before_an_agreement(client, applied):
    Sponsorship.objects.filter(pk=applied.pk).update(accepted_at=None)
    client.force_login(viewer("view_sponsorship"))
    page = client.get(f"/admin/sponsors/sponsorship/{applied.pk}/change/")
    assertContains(page, "None accepted")
    assertNotContains(page, "agreement.pdf")


@pytest.mark.parametrize(
    "count, words", [(1, "1 sponsorship approved."), (2, "2 sponsorships approved.")]
)
def test_the_admin_counts_sponsorships_in_words(client, count, words):
    chosen = [
        applications.apply(OrganisationFactory(), TierFactory(), "invoice", None)
        for _ in range(count)
    ]
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.post(
        "/admin/sponsors/sponsorship/",
        {"action": "approve", "_selected_action": [s.pk for s in chosen]},
        follow=True,
    )
    assertContains(page, words)
    assertNotContains(page, "1 sponsorships")


@pytest.mark.parametrize(
    "method, phrase",
    [
        ("card_once", "paid by card, one year at a time"),
        ("card_annual", "paid by card, renewed every year"),
        ("invoice", "paid by invoice to the billing contact"),
    ],
)
def test_the_application_mail_says_how_it_is_paid_in_words(
    method, phrase, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        applications.apply(OrganisationFactory(), TierFactory(), method, None)
    (sent,) = [m for m in mail.outbox if "received your application" in m.body]
    assert phrase in sent.body
    assert "paid card" not in sent.body and "paid invoice" not in sent.body


def test_prices_say_that_they_include_vat_and_whose(client, settings):
    settings.INVOICE_VAT_RATE, settings.INVOICE_ISSUER_COUNTRY = "25.5", "FI"
    TierFactory(name="Gold")
    page = client.get("/sponsors/")
    assertContains(
        page,
        '<p class="tier-price"><strong>€50,000</strong> a year, VAT included</p>',
        html=True,
    )
    assertContains(page, "25.5 % VAT is part of the price for a sponsor in Finland")
    assertContains(page, "(reverse charge) or outside the EU pays the same price, with no VAT")
