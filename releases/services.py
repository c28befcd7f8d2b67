"""Release workflows: publishing a release and announcing it in the foundation's news."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from foundation.services import publish_news_post
from releases.catalogue import Catalogue, SeriesFacts
from releases.models import Release, Series

MATURITY_WORDS = {"alpha": "alpha", "beta": "beta", "rc": "release candidate", "ga": "stable"}


def announcement_slug(release: Release) -> str:
    return f"mariadb-{release.version.replace('.', '-')}-released"


@transaction.atomic
def publish_release(release: Release) -> Release:
    """Publish a release and create or update its announcement (idempotent)."""
    release.is_published = True
    site = settings.SITE_URL.rstrip("/")
    context = {
        "release": release,
        "series": release.series,
        "release_url": site + release.get_absolute_url(),
        "series_url": site + release.series.get_absolute_url(),
        "feedback_url": site + "/feedback/",
        "generator_url": site
        + reverse("repoconfig:generator")
        + f"?version={release.series.version}",
    }
    body = render_to_string("releases/announcement.md", context)
    post = publish_news_post(
        slug=announcement_slug(release),
        title=f"MariaDB {release.version} {MATURITY_WORDS[release.maturity]} released",
        body=body,
        category="Releases",
        summary=(
            f"The project is pleased to announce the immediate availability of MariaDB "
            f"{release.version}, {'an' if release.maturity == 'alpha' else 'a'} {MATURITY_WORDS[release.maturity]} release."
        ),
        author_name="The MariaDB Foundation",
        published_at=datetime.combine(release.release_date, time(12, 0), tzinfo=UTC),
    )
    release.announcement = post
    release.save()
    return release


# Pre-GA maturities, least to most mature: a series without a GA release takes the status
# of its most mature release.
PRE_GA_ORDER = ["preview", "alpha", "beta", "rc"]


@dataclass
class ImportReport:
    series: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    releases: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0})
    kept_unlisted: int = 0

    def lines(self):
        yield "series: {created} created, {updated} updated, {unchanged} unchanged".format(
            **self.series
        )
        yield "releases: {created} created, {updated} updated, {unchanged} unchanged".format(
            **self.releases
        )
        if self.kept_unlisted:
            yield f"{self.kept_unlisted} releases in the database are not in the file (kept)"


def _series_values(version, facts: SeriesFacts | None, maturities, today):
    if facts is None:
        # A series the file only knows through pre-GA releases (e.g. a 13.0 preview).
        status = max(maturities, key=PRE_GA_ORDER.index)
        return {"name": f"MariaDB {version}", "status": status,
                "support_type": Series.SupportType.UNANNOUNCED}  # fmt: skip
    if facts.ga_date and facts.ga_date <= today:
        status = Series.Status.EOL if facts.eol_date and facts.eol_date < today else "stable"
    else:
        pre_ga = [m for m in maturities if m in PRE_GA_ORDER]
        status = max(pre_ga, key=PRE_GA_ORDER.index) if pre_ga else Series.Status.RC
    return {
        "name": f"MariaDB {version}",
        "status": status,
        "support_type": Series.SupportType.LONG_TERM
        if facts.long_term
        else Series.SupportType.SHORT_TERM,
        "first_release_date": facts.ga_date,
        "eol_date": facts.eol_date,
        "enterprise_eos_date": facts.enterprise_eos_date,
    }


def _apply(obj, values) -> bool:
    changed = [name for name, value in values.items() if getattr(obj, name) != value]
    for name in changed:
        setattr(obj, name, values[name])
    return bool(changed)


@transaction.atomic
def import_catalogue(
    catalogue: Catalogue,
    today: date,
    progress: Callable[[Iterable], Iterable] = lambda items: items,
) -> ImportReport:
    """Create or update series and releases from the catalogue; never deletes anything.

    Only the facts the file holds are written (dates, maturity, support, end of life):
    descriptions, notes, files, announcements and publication stay as staff left them.
    """
    report = ImportReport()
    facts_by_series = {s.version: s for s in catalogue.series}
    maturities: dict[str, set] = {}
    for release in catalogue.releases:
        maturities.setdefault(release.series, set()).add(release.maturity)
    existing_series = {s.version: s for s in Series.objects.all()}
    series_by_version = {}
    for version in sorted(set(facts_by_series) | set(maturities)):
        values = _series_values(
            version, facts_by_series.get(version), maturities.get(version, set()), today
        )
        obj = existing_series.get(version)
        if obj is None:
            series_by_version[version] = Series.objects.create(version=version, **values)
            report.series["created"] += 1
            continue
        if version not in facts_by_series:
            values.pop("support_type")  # staff may have announced it since
        if _apply(obj, values):
            obj.save()
            report.series["updated"] += 1
        else:
            report.series["unchanged"] += 1
        series_by_version[version] = obj
    existing = {r.version: r for r in Release.objects.all()}
    listed = set()
    for facts in progress(catalogue.releases):
        listed.add(facts.version)
        values = {"series": series_by_version[facts.series], "release_date": facts.release_date,
                  "maturity": facts.maturity}  # fmt: skip
        release = existing.get(facts.version)
        if release is None:
            Release.objects.create(version=facts.version, **values)
            report.releases["created"] += 1
        elif _apply(release, values):
            release.save()
            report.releases["updated"] += 1
        else:
            report.releases["unchanged"] += 1
    report.kept_unlisted = len(set(existing) - listed)
    return report
