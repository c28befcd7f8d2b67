"""Issue 34: expense receipts were uploaded to MEDIA_ROOT, which the web server hands to
anyone with the address. They are kept in the private folder and handed out by the
admin after its permission check; a data migration moves the receipts already stored."""

from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from donations.models import Expense
from tests.foundation.factories import UserFactory

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def add_expense(client):
    data = {
        "spent_on": "2026-04-01",
        "category": "infrastructure",
        "description": "CI runners",
        "amount": "250.00",
        "currency": "EUR",
        "receipt": SimpleUploadedFile("invoice.pdf", PDF),
    }
    response = client.post("/admin/donations/expense/add/", data)
    assert response.status_code == 302
    return Expense.objects.get()


@pytest.mark.django_db
def test_a_receipt_is_kept_outside_the_public_folder_and_handed_to_staff_only(client, settings):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    expense = add_expense(client)
    name = expense.receipt.name
    assert not (Path(settings.MEDIA_ROOT) / name).exists()
    assert (Path(settings.PRIVATE_MEDIA_ROOT) / name).read_bytes() == PDF

    # The change page links to the admin's view (the private folder has no URL).
    link = f"/admin/donations/expense/{expense.pk}/receipt/"
    page = client.get(f"/admin/donations/expense/{expense.pk}/change/")
    assert page.status_code == 200
    assert f'href="{link}"' in page.content.decode()
    response = client.get(link)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert "no-store" in response["Cache-Control"]

    # Staff who may not view expenses, and visitors, do not get it.
    clerk = UserFactory(is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_gift"))
    client.force_login(clerk)
    assert client.get(link).status_code in (403, 404)
    client.logout()
    assert client.get(link).status_code == 302  # to the admin's login


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_stored_receipts_into_the_private_folder(settings):
    executor = MigrationExecutor(connection)
    executor.migrate([("donations", "0005_donation_cancel_requested_at")])
    old = executor.loader.project_state([("donations", "0005_donation_cancel_requested_at")]).apps
    try:
        stored = default_storage.save("donations/receipts/abc123.pdf", ContentFile(PDF))
        old_expense = old.get_model("donations", "Expense")
        expense = old_expense.objects.create(
            spent_on="2026-04-01",
            category="infrastructure",
            description="CI runners",
            amount="250.00",
            currency="EUR",
            receipt=stored,
        )
        executor = MigrationExecutor(connection)
        executor.migrate([("donations", "0006_expense_receipts_private")])
        moved = Expense.objects.get(pk=expense.pk)
        assert not (Path(settings.MEDIA_ROOT) / stored).exists()
        assert moved.receipt.read() == PDF
        assert (Path(settings.PRIVATE_MEDIA_ROOT) / moved.receipt.name).exists()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
