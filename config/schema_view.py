"""/api/schema/: built once per process, before the process serves, and served from there.

drf-spectacular builds the schema anew on every request, and its generator is not safe
in threads: after a reload (gunicorn's HUP, ``systemctl reload``) twelve concurrent
requests to a fresh worker's threads got ten 500s (issue 58, item 10). ``built_schema``
builds each schema under one lock and keeps the default one (and one per language) for
the process's life; config/wsgi.py builds the default one when a worker loads the site,
before it takes a request. The schema is the code's, so it changes only with a new
release, which starts new processes.

The query parameters are checked at the door: drf-spectacular writes ``?version=`` into
the ``Content-Disposition`` header (a line break there was a 500, ``BadHeaderError``) and
hands ``?lang=`` to the translation machinery. A module of its own: drf-spectacular's
views import the generator class named in the settings (config/openapi.py), so that
module cannot import them.
"""

import logging
import re
import threading
from contextlib import nullcontext

from django.conf import settings
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.exceptions import ParseError
from rest_framework.response import Response

from config.openapi import PortalSchemaGenerator

logger = logging.getLogger(__name__)

VERSION_PARAMETER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")

_building = threading.Lock()
# (version, language) -> schema; only the unversioned ones are kept (a version is any
# string a client sends: built on demand, under the lock, never kept).
_built: dict[tuple[str | None, str | None], dict] = {}


def built_schema(version: str | None = None, language: str | None = None) -> dict:
    """The schema (of ``version``, in ``language``), built once per process under a lock."""
    key = (version, language)
    if (schema := _built.get(key)) is not None:
        return schema
    with _building:
        if (schema := _built.get(key)) is None:
            generator = PortalSchemaGenerator(api_version=version)
            with translation.override(language) if language else nullcontext():
                schema = generator.get_schema(request=None, public=True)
            if version is None:
                _built[key] = schema
    return schema


def build_before_serving() -> None:
    """Called as a process loads the site (config/wsgi.py). A failure is logged, not
    raised: the site serves, and /api/schema/ tries again on its first request."""
    try:
        built_schema()
    except Exception:
        logger.exception("the API schema could not be built at start-up")


class SchemaView(SpectacularAPIView):
    """/api/schema/: drf-spectacular's view, with its query parameters checked at the door
    and the schema built once per process (``built_schema``)."""

    def initial(self, request, *args, **kwargs):  # before the handler; get() stays the library's
        super().initial(request, *args, **kwargs)
        version = request.GET.get("version")
        if version is not None and not VERSION_PARAMETER.fullmatch(version):
            raise ParseError(
                "version must be 1 to 32 letters, digits, dots, dashes or underscores."
            )
        language = request.GET.get("lang")
        if language is not None and language not in dict(settings.LANGUAGES):
            raise ParseError("lang must be one of the site's language codes.")

    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        language = request.GET.get("lang") if settings.USE_I18N else None
        return Response(
            data=built_schema(version, language or None),
            headers={
                "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'
            },
        )
