"""Subscriptions are ended through one outbox kind, payments.cancel_subscription, for
sponsorships and gifts alike: items still waiting under the apps' old kinds move to it."""

from django.db import migrations

OLD_KINDS = ("sponsors.cancel_subscription", "donations.cancel_subscription")
KIND = "payments.cancel_subscription"


def one_kind(apps, schema_editor):
    OutboxItem = apps.get_model("outbox", "OutboxItem")
    OutboxItem.objects.filter(kind__in=OLD_KINDS).update(kind=KIND)


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0009_one_payment_per_charge"),
        ("outbox", "0002_own_table_and_lease"),
    ]

    operations = [migrations.RunPython(one_kind, migrations.RunPython.noop)]
