import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from feedback.fastpath import FeedbackFastPath  # noqa: E402 - needs Django set up first

# The feedback plugin's uploads take a lean path; every other request is Django's.
application = FeedbackFastPath(django_application)
