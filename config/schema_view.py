"""/api/schema/ with its query parameters checked at the door.

drf-spectacular writes ``?version=`` into the ``Content-Disposition`` header (a line break
there was a 500, ``BadHeaderError``) and hands ``?lang=`` to the translation machinery.
A module of its own: drf-spectacular's views import the generator class named in the
settings (config/openapi.py), so that module cannot import them.
"""

import re

from django.conf import settings
from drf_spectacular.views import SpectacularAPIView
from rest_framework.exceptions import ParseError

VERSION_PARAMETER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")


class SchemaView(SpectacularAPIView):
    """/api/schema/: drf-spectacular's view, with its query parameters checked at the door."""

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
