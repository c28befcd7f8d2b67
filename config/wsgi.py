import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Built before this process takes a request: building it under concurrent requests
# answered 500s after every reload (config/schema_view.py).
from config.schema_view import build_before_serving  # noqa: E402  (needs the app loaded)

build_before_serving()
