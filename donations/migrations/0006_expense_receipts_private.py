"""Expense receipts move from MEDIA_ROOT (which the web server hands to anyone) to
PRIVATE_MEDIA_ROOT, where only the admin's view hands them out (issue 34)."""

from django.core.files.storage import default_storage
from django.db import migrations, models

import core.storage
import donations.models


def _move(Expense, source, target):
    for expense in Expense.objects.exclude(receipt=""):
        name = expense.receipt.name
        if not source.exists(name):
            continue  # already moved, or lost before: nothing to copy
        with source.open(name, "rb") as content:
            stored = target.save(name, content)
        source.delete(name)
        if stored != name:
            Expense.objects.filter(pk=expense.pk).update(receipt=stored)


def to_private(apps, schema_editor):
    _move(apps.get_model("donations", "Expense"), default_storage, core.storage.private())


def to_public(apps, schema_editor):
    _move(apps.get_model("donations", "Expense"), core.storage.private(), default_storage)


class Migration(migrations.Migration):
    dependencies = [
        ("donations", "0005_donation_cancel_requested_at"),
    ]

    operations = [
        migrations.AlterField(
            model_name="expense",
            name="receipt",
            field=models.FileField(
                blank=True,
                help_text="PDF, PNG or JPEG, up to 5 MiB. Kept private: staff open it from here.",
                storage=core.storage.private,
                upload_to=donations.models.receipt_path,
            ),
        ),
        migrations.RunPython(to_private, to_public),
    ]
