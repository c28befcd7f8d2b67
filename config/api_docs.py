"""The browsable API documentation page (kept apart from config/openapi.py, which
drf-spectacular imports while loading its own views)."""

from drf_spectacular.views import SpectacularSwaggerSplitView


class ApiDocsView(SpectacularSwaggerSplitView):
    """/api/docs/: Swagger UI from our own static files (drf-spectacular-sidecar), its
    start-up script fetched separately so the page needs no inline script."""

    template_name = "api/docs.html"
    url_name = "api-schema"
    title = "MariaDB Foundation portal API"
