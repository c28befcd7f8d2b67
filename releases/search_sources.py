"""Release series and releases in the site search (registered from
``ReleasesConfig.ready()``)."""

from releases.models import Release, Series
from search.models import SearchDocument
from search.sources import Entry, Source, plain_text, register

Kind = SearchDocument.Kind


def _describe_series(series):
    return Entry(
        title=str(series),
        url=series.get_absolute_url(),
        summary=f"{series.get_status_display()} release series, "
        f"{series.get_support_type_display().lower()}.",
        body=plain_text(series.description),
        date=series.first_release_date,
        exact_name=series.version,
    )


def _releases():
    return Release.objects.published().select_related("series")


def _describe_release(release):
    return Entry(
        title=str(release),
        url=release.get_absolute_url(),
        summary=f"{release.get_maturity_display()} release in the {release.series} series.",
        body=plain_text(f"{release.release_notes}\n\n{release.changelog}"),
        date=release.release_date,
        exact_name=release.version,
    )


def register_sources() -> None:
    register(Source(Series, Kind.SERIES, Series.objects.all, _describe_series))
    register(Source(Release, Kind.RELEASE, _releases, _describe_release))
