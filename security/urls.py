from django.urls import path, register_converter

from core.pagecache import shared_response
from security import api, views
from security.models import ADVISORY_ID_PATTERN


class AdvisoryIdConverter:
    """A CVE id such as CVE-2026-44171: anything else is a 404 before any query."""

    regex = ADVISORY_ID_PATTERN

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(AdvisoryIdConverter, "advisory_id")

app_name = "security"

urlpatterns = [
    path("security/", views.advisory_list, name="advisories"),
    path("security/affected/", views.affected, name="affected"),
    path("security/feed/", views.advisory_feed, name="feed"),
    path("security/osv/all.zip", views.osv_all, name="osv-all"),
    path("security/osv/<advisory_id:advisory_id>.json", views.osv_record, name="osv"),
    path("security/<advisory_id:advisory_id>/", views.advisory_detail, name="advisory"),
    path("api/security/", shared_response(api.AdvisoryListAPI.as_view()), name="api-advisories"),
    path("api/security/affected/", shared_response(api.AffectedAPI.as_view()), name="api-affected"),
]
