import django.core.files.storage
from django.db import migrations, models

import benchmarks.models
import core.storage


def _move_files(apps, source, target):
    """Each attachment's file from one storage to the other, under the same name."""
    Attachment = apps.get_model("benchmarks", "Attachment")
    for name in Attachment.objects.values_list("file", flat=True).iterator():
        if not name or not source.exists(name) or target.exists(name):
            continue
        with source.open(name, "rb") as content:
            target.save(name, content)
        source.delete(name)


def into_the_private_folder(apps, schema_editor):
    """Raw files uploaded before now sit in MEDIA_ROOT, which the web server serves."""
    _move_files(apps, django.core.files.storage.default_storage, core.storage.private())


def back_into_the_public_folder(apps, schema_editor):
    _move_files(apps, core.storage.private(), django.core.files.storage.default_storage)


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0003_run_review_and_provenance"),
    ]

    operations = [
        migrations.AlterField(
            model_name="attachment",
            name="file",
            field=models.FileField(
                max_length=200,
                storage=core.storage.private,
                upload_to=benchmarks.models.raw_file_path,
            ),
        ),
        migrations.RunPython(into_the_private_folder, back_into_the_public_folder),
    ]
