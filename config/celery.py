"""The Celery application. Workers: `celery -A config worker`; beat: `celery -A config beat`."""

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Enqueue failures (broker down) are logged, never raised into a request: core/enqueue.py.
app = Celery("portal", task_cls="core.enqueue:LoggedEnqueueTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The outbox's delivery tasks live below its services, outside tasks.py.
app.autodiscover_tasks(["outbox"], related_name="delivery")


@setup_logging.connect
def use_the_sites_logging(**kwargs):
    """Worker and beat log through settings.LOGGING (JSON lines in production), like the
    web processes; with a receiver here Celery leaves the logging configuration alone."""
    logging.config.dictConfig(settings.LOGGING)
