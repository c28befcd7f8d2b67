from django.db import migrations

NAME = "sponsors: renewal reminders and lapses"


def create_schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    daily, _ = CrontabSchedule.objects.get_or_create(minute="15", hour="6", day_of_week="*", day_of_month="*",
                                                     month_of_year="*", timezone="UTC")
    PeriodicTask.objects.update_or_create(
        name=NAME, defaults={"task": "sponsors.tasks.run_sponsorship_renewals", "crontab": daily}
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("sponsors", "0001_catalogue_and_sponsorships"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(create_schedule, remove_schedule)]
