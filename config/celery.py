"""The Celery application. Workers: `celery -A config worker`; beat: `celery -A config beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Enqueue failures (broker down) are logged, never raised into a request: core/enqueue.py.
app = Celery("portal", task_cls="core.enqueue:LoggedEnqueueTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Tasks below the services layer (mail, the outbox's delivery) live outside tasks.py.
app.autodiscover_tasks(related_name="mail")
app.autodiscover_tasks(["payments"], related_name="outbox")
