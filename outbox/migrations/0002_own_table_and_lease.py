"""The moved outbox takes its own table name and the lease its delivery claims items with;
staff permissions on outbox items (the content type) and the beat schedule of the sweep
follow it out of payments."""

from django.db import migrations, models

OLD_TASK, NEW_TASK = "payments.tasks.sweep_outbox", "outbox.tasks.sweep_outbox"
OLD_NAME, NEW_NAME = "payments: deliver pending outbox items", "outbox: deliver pending side effects"


def move_content_type(apps, schema_editor, old="payments", new="outbox"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=new, model="outboxitem").exists():
        ContentType.objects.filter(app_label=old, model="outboxitem").update(app_label=new)


def move_content_type_back(apps, schema_editor):
    move_content_type(apps, schema_editor, old="outbox", new="payments")


def rename_schedule(apps, schema_editor, old=(OLD_TASK, OLD_NAME), new=(NEW_TASK, NEW_NAME)):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(task=old[0]).update(task=new[0], name=new[1])


def rename_schedule_back(apps, schema_editor):
    rename_schedule(apps, schema_editor, old=(NEW_TASK, NEW_NAME), new=(OLD_TASK, OLD_NAME))


class Migration(migrations.Migration):

    dependencies = [
        ("outbox", "0001_initial"),
        ("payments", "0003_outbox_sweep_schedule"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.AlterModelTable(name="outboxitem", table=None),
        migrations.AddField(
            model_name="outboxitem",
            name="leased_until",
            field=models.DateTimeField(blank=True, help_text="A delivery is carrying it out until then", null=True),
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
        migrations.RunPython(rename_schedule, rename_schedule_back),
    ]
