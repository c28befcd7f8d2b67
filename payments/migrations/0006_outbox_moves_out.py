"""The outbox is its own app now (outbox/migrations/0001 takes over the model and its
table); payments forgets the model without touching the table."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("payments", "0005_stripe_event_reason"),
        ("outbox", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="OutboxItem")],
            database_operations=[],
        ),
    ]
