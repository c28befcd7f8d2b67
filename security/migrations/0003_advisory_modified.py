from django.db import migrations, models


def from_last_save(apps, schema_editor):
    """Existing advisories: the last time they were saved is the best known change."""
    Advisory = apps.get_model("security", "Advisory")
    Advisory.objects.update(modified=models.F("updated_at"))


class Migration(migrations.Migration):
    dependencies = [("security", "0002_advisory_id_ascii_digits")]

    operations = [
        migrations.AddField(
            model_name="advisory",
            name="modified",
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.RunPython(from_last_save, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="advisory",
            name="modified",
            field=models.DateTimeField(
                editable=False,
                help_text="When this advisory's facts last changed (its OSV modified): the day "
                "the advisories file stated them, or when staff changed them.",
            ),
        ),
    ]
