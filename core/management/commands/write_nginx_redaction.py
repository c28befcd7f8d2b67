"""Write deploy/nginx/portal-redact.conf, nginx's copy of the URL secrets the logs hide.

The prefixes and query parameters come from core.logredact's registry (core's own and
those apps register from their ``AppConfig.ready()``): run after an app registers a new
one, and commit the file (tests/core/test_logging.py fails while it differs).
"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from core import logredact

NGINX_REDACTION_MAP = Path(settings.BASE_DIR) / "deploy" / "nginx" / "portal-redact.conf"


class Command(BaseCommand):
    help = "Write nginx's redaction map (deploy/nginx/portal-redact.conf) from the registry."

    def handle(self, *args: Any, **options: Any) -> None:
        NGINX_REDACTION_MAP.write_text(logredact.nginx_map())
        self.stdout.write(f"wrote {NGINX_REDACTION_MAP}")
