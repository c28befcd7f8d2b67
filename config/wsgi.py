import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()  # sets Django up: app modules import from here on

from feedback.wsgi import ReportEntry  # noqa: E402

# The feedback plugin's posts are answered ahead of Django's handler (feedback/wsgi.py).
application = ReportEntry(django_application)
