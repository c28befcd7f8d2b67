from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from config.api_docs import ApiDocsView
from config.schema_view import SchemaView
from core import sitemaps
from core.login_throttle import throttle_admin_login

admin.site.site_header = "MariaDB Foundation staff"
admin.site.site_title = "MariaDB Foundation staff"
handler500 = "core.outage.server_error"  # a database outage anywhere answers 503
admin.site.login = throttle_admin_login(admin.site.login)  # type: ignore[method-assign]

# Each app owns its full paths (see the app's urls.py); order matters where prefixes
# overlap (the repository generator lives under /download/), and for speed: the URLs that
# installers and scripts call (releases, with the download redirect that no cache can
# answer) are tried first, so they resolve without failing through every other app's.
urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/docs/", ApiDocsView.as_view(), name="api-docs"),
    path("sitemap.xml", sitemaps.sitemap_xml, name="sitemap"),
    path("", include("releases.repoconfig.urls")),
    path("", include("releases.urls")),
    path("", include("security.urls")),
    path("", include("core.urls")),
    path("", include("foundation.urls")),
    path("", include("sponsors.urls")),
    path("", include("payments.urls")),
    path("", include("sponsors.benefits.urls")),
    path("", include("feedback.urls")),
    path("", include("feedback.trends.urls")),
    path("", include("benchmarks.urls")),
    path("", include("donations.urls")),
    path("", include("invoicing.urls")),
    path("", include("search.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
