"""The outbox moves out of payments into its own app: the model's state moves here, the
table (``payments_outboxitem``, with its rows) stays as it is until 0002 renames it."""

import uuid

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("payments", "0005_stripe_event_reason"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="OutboxItem",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(help_text="The registered side effect", max_length=80)),
                        ("payload", models.JSONField(default=dict)),
                        ("idempotency_key", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                        ("status", models.CharField(choices=[("pending", "Pending"), ("done", "Done"), ("stuck", "Stuck (needs staff)"), ("withdrawn", "Withdrawn (undone before it was due)")], db_index=True, default="pending", max_length=10)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("last_error", models.CharField(blank=True, max_length=500)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("next_attempt_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("done_at", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "ordering": ["-created_at"],
                        "indexes": [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")],
                        "db_table": "payments_outboxitem",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
