"""The Celery application. Workers: `celery -A config worker`; beat: `celery -A config beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Tasks below the services layer (mail, calls to Stripe) live outside tasks.py.
app.autodiscover_tasks(related_name="mail")
app.autodiscover_tasks(["sponsors"], related_name="stripe_tasks")
