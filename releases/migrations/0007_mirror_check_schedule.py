from django.db import migrations

NAME = "releases: check mirrors"


def create_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_30_minutes, _ = IntervalSchedule.objects.get_or_create(every=30, period="minutes")
    PeriodicTask.objects.update_or_create(
        name=NAME, defaults={"task": "releases.tasks.check_mirrors", "interval": every_30_minutes}
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("releases", "0006_download_counts"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(create_schedule, remove_schedule)]
