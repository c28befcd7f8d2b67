from datetime import timedelta

from django.conf import settings
from django.db import migrations, models

# The notes the sponsor's own cancellations were recognised by before this field existed.
SPONSORS_OWN = ["application withdrawn by the sponsor", "cancelled by the sponsor"]


def record_undo_windows(apps, schema_editor):
    """The sponsor's own cancellations made before this migration keep their undo window."""
    window = timedelta(minutes=settings.SPONSORSHIP_UNDO_MINUTES)
    events = apps.get_model("sponsors", "SponsorshipEvent").objects
    for event in events.filter(to_status="cancelled", note__in=SPONSORS_OWN):
        event.undoable_until = event.at + window
        event.save(update_fields=["undoable_until"])


class Migration(migrations.Migration):
    dependencies = [
        ("sponsors", "0007_sponsorship_invoice"),
    ]

    operations = [
        migrations.AddField(
            model_name="sponsorshipevent",
            name="undoable_until",
            field=models.DateTimeField(
                blank=True,
                help_text="Until when the sponsor may undo this change (their own cancellation)",
                null=True,
            ),
        ),
        migrations.RunPython(record_undo_windows, migrations.RunPython.noop),
    ]
