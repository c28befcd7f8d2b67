"""/security/: the advisories, one advisory, "Am I affected?", the Atom feed and the OSV
records (one per advisory and all in a ZIP)."""

from datetime import UTC, datetime, time

from django.contrib.syndication.views import Feed
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema

from core import numbers
from security import osv
from security.cvss import read_vector
from security.forms import AdvisoryFilter, VersionForm
from security.models import Advisory
from security.queries import UnknownSeries, check_release, release_key, span_of

ADVISORIES_PER_PAGE = 25


@require_GET
def advisory_list(request):
    form = AdvisoryFilter.for_data(request.GET)
    valid = form.is_valid()
    advisories = Advisory.objects.newest_first()
    if valid:
        advisories = advisories.matching(**form.filters())
    paginator = Paginator(advisories, ADVISORIES_PER_PAGE)
    page = paginator.get_page(numbers.page_number(request.GET))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "filtered": valid and any(form.filters().values()),
        "page_obj": page,
        "advisories": page.object_list,
        "paginator": paginator,
        "query": query.urlencode(),
        "version_form": VersionForm(),
    }
    return render(request, "security/advisory_list.html", context, status=200 if valid else 400)


@require_GET
def advisory_detail(request, advisory_id):
    advisory = get_object_or_404(Advisory.objects.with_ranges(), advisory_id=advisory_id)
    ranges = sorted(advisory.ranges.all(), key=lambda r: r.series.sort_key, reverse=True)
    releases = osv.releases_by_series({r.series.version for r in ranges})
    rows = []
    for span in ranges:
        rule = span_of(span)
        rows.append(
            {
                "range": span,
                "affected": [
                    r
                    for r in releases.get(span.series.version, [])
                    if rule.includes(release_key(r))
                ],
            }
        )
    context = {
        "advisory": advisory,
        "rows": rows,
        "vector": read_vector(advisory.cvss_vector) if advisory.cvss_vector else [],
    }
    return render(request, "security/advisory_detail.html", context)


@require_GET
def affected(request):
    """The "Am I affected?" form: ?version= is what the server printed."""
    form = VersionForm(request.GET if "version" in request.GET else None)
    context = {"form": form, "today": timezone.localdate()}
    status = 200
    if form.is_bound:
        if form.is_valid():
            parsed = form.cleaned_data["version"]
            try:
                context["check"] = check_release(
                    parsed.major, parsed.minor, parsed.patch, timezone.localdate()
                )
                context["parsed"] = parsed
            except UnknownSeries as error:
                form.add_error("version", str(error))
                status = 400
        else:
            status = 400
    return render(request, "security/affected.html", context, status=status)


@extend_schema(
    tags=["security"],
    operation_id="security_feed",
    responses={(200, "application/atom+xml"): OpenApiTypes.STR},
    description="The advisories as an Atom feed, newest first (the latest 50).",
)
@require_GET
def advisory_feed(request):
    """The advisories as an Atom feed."""
    return AdvisoryFeed()(request)


class AdvisoryFeed(Feed):
    feed_type = Atom1Feed
    title = "MariaDB Server security advisories"
    link = "/security/"
    subtitle = "Vulnerabilities (CVEs) fixed in MariaDB Server, newest first."

    def items(self):
        return Advisory.objects.newest_first()[:50]

    def item_title(self, item):
        return (
            f"{item.advisory_id} ({item.get_rating_display()}, {item.cvss_score}): {item.component}"
        )

    def item_description(self, item):
        return item.summary

    def item_pubdate(self, item):
        return datetime.combine(item.published, time(12, 0), tzinfo=UTC)

    def item_updateddate(self, item):
        return item.updated_at


def _json(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@extend_schema(
    tags=["security"],
    operation_id="security_osv_record",
    responses={200: OpenApiTypes.OBJECT, 404: None},
    description="One advisory as an OSV record (https://ossf.github.io/osv-schema/): the "
    "affected upstream tags of MariaDB/server in affected[].versions, the ranges per series "
    "in affected[].database_specific.series_ranges.",
)
@require_GET
def osv_record(request, advisory_id):
    """One advisory as an OSV record."""
    advisory = Advisory.objects.with_ranges().filter(advisory_id=advisory_id).first()
    if advisory is None:
        raise Http404("no such advisory")
    return _json(osv.as_json(osv.record(advisory)), f"{advisory.advisory_id}.json")


@extend_schema(
    tags=["security"],
    operation_id="security_osv_all",
    responses={(200, "application/zip"): OpenApiTypes.BINARY},
    description="Every advisory as an OSV record, one <id>.json per advisory in a ZIP.",
)
@require_GET
def osv_all(request):
    """Every advisory as an OSV record, in one ZIP."""
    response = HttpResponse(osv.zip_of(osv.all_records()), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="mariadb-server-osv.zip"'
    return response
