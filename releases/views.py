from datetime import UTC, datetime, time

from django.contrib.syndication.views import Feed
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.views.generic import TemplateView

from releases.models import Release, ReleaseFile, Series
from releases.repoconfig.models import Mirror


def _mirror(request):
    mirrors = list(Mirror.objects.filter(active=True))
    chosen = next((m for m in mirrors if m.mirror_id == request.GET.get("mirror")), None)
    return mirrors, chosen or (mirrors[0] if mirrors else None)


class DownloadView(TemplateView):
    """/download/: pick a series, a release, an OS and a package, and a mirror."""

    template_name = "releases/download.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        published = Release.objects.published().by_version()
        series = sorted(
            Series.objects.prefetch_related(Prefetch("releases", queryset=published)),
            key=lambda s: s.sort_key,
            reverse=True,
        )
        series = [s for s in series if s.releases.all()]
        get = self.request.GET
        chosen_series = next((s for s in series if s.version == get.get("series")), None)
        chosen_series = chosen_series or next(
            (s for s in series if not s.is_eol(timezone.localdate())), None
        )
        releases = list(chosen_series.releases.all()) if chosen_series else []
        chosen_release = next((r for r in releases if r.version == get.get("release")), None)
        chosen_release = chosen_release or (releases[0] if releases else None)
        files = list(chosen_release.files.all()) if chosen_release else []
        os_choice, package_choice = get.get("os", ""), get.get("package", "")
        shown = [
            f
            for f in files
            if (not os_choice or f.os == os_choice)
            and (not package_choice or f.package_type == package_choice)
        ]
        mirrors, mirror = _mirror(self.request)
        context.update(
            series_list=series,
            chosen_series=chosen_series,
            releases=releases,
            chosen_release=chosen_release,
            files=shown,
            os_choices=ReleaseFile.OS.choices,
            package_choices=ReleaseFile.PackageType.choices,
            os_choice=os_choice,
            package_choice=package_choice,
            mirrors=mirrors,
            mirror=mirror,
            today=timezone.localdate(),
        )
        return context


class SeriesView(TemplateView):
    template_name = "releases/series.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        series = get_object_or_404(Series, version=kwargs["series"])
        context.update(
            series=series,
            releases=list(series.releases.published().by_version()),
            is_eol=series.is_eol(timezone.localdate()),
        )
        return context


class ReleaseView(TemplateView):
    template_name = "releases/release.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        release = get_object_or_404(
            Release.objects.published().select_related("series").prefetch_related("files"),
            series__version=kwargs["series"],
            version=kwargs["version"],
        )
        mirrors, mirror = _mirror(self.request)
        context.update(
            release=release,
            series=release.series,
            files=list(release.files.all()),
            mirrors=mirrors,
            mirror=mirror,
            is_eol=release.series.is_eol(timezone.localdate()),
        )
        return context


class ReleaseFeed(Feed):
    feed_type = Atom1Feed
    title = "MariaDB releases"
    link = "/download/"
    subtitle = "New MariaDB Server releases published by the foundation."

    def items(self):
        return Release.objects.published().select_related("series").order_by("-release_date")[:30]

    def item_title(self, item):
        return f"MariaDB {item.version} ({item.get_maturity_display()})"

    def item_description(self, item):
        return f"MariaDB {item.version}, a {item.get_maturity_display().lower()} release of {item.series}."

    def item_pubdate(self, item):
        return datetime.combine(item.release_date, time(12, 0), tzinfo=UTC)

    def item_updateddate(self, item):
        return self.item_pubdate(item)
