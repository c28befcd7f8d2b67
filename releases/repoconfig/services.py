"""Turn a visitor's choice into a rendered file, or a one-line reason why not."""

from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from releases.repoconfig.models import Availability, DistributionRelease, Mirror
from releases.repoconfig.render import RenderedConfig, RenderError, RepoChoice, render
from releases.versions import series_sort_key

# The two names of each architecture; the family decides which one goes in the file.
ARCH_ALIASES = {"amd64": "x86_64", "arm64": "aarch64", "ppc64el": "ppc64le"}
RPM_TO_APT = {rpm: apt for apt, rpm in ARCH_ALIASES.items()}


class UnsupportedChoice(ValueError):
    """The combination does not exist; the message is a one-line reason."""


@dataclass
class Generated:
    config: RenderedConfig
    release: DistributionRelease
    availability: Availability
    mirror: Mirror
    warnings: list[str]
    share_query: str


def series_label(version: str) -> str:
    major, _, rest = version.partition(".")
    return f"{major} Rolling" if rest == "rolling" else version


def normalise_arch(arch: str, family: str) -> str:
    arch = arch.strip().lower()
    if family == "apt":
        return RPM_TO_APT.get(arch, arch)
    return ARCH_ALIASES.get(arch, arch)


def generate(
    *, distro, release, version, mirror, arch="", fmt="", today=None, now=None
) -> Generated:
    if not all([distro, release, version, mirror]):
        raise UnsupportedChoice("distro, release, version and mirror are all required")
    try:
        chosen = DistributionRelease.objects.with_related().get(
            distribution__slug=distro.lower(), key=release.lower()
        )
    except DistributionRelease.DoesNotExist:
        raise UnsupportedChoice(f"unknown distribution release {distro} {release}") from None
    repo_release = chosen.repository_release
    try:
        availability = Availability.objects.select_related("series").get(
            release=repo_release, series__version=version
        )
    except Availability.DoesNotExist:
        raise UnsupportedChoice(f"MariaDB {version} is not built for {chosen.label}") from None
    try:
        mirror_obj = Mirror.objects.get(mirror_id=mirror, active=True)
    except Mirror.DoesNotExist:
        raise UnsupportedChoice(f"unknown or inactive mirror {mirror}") from None
    if not mirror_obj.usable:
        raise UnsupportedChoice(unusable_mirror_reason(mirror_obj))

    family = chosen.distribution.family
    arch = normalise_arch(arch, family) if arch else ""
    if arch and arch not in availability.architecture_list:
        built = ", ".join(availability.architecture_list)
        raise UnsupportedChoice(
            f"MariaDB {version} is not built for {arch} on {chosen.label} (built for: {built})"
        )
    repo_distribution = repo_release.distribution
    choice = RepoChoice(
        family=family,
        repo_path=repo_distribution.repo_path,
        header_label=repo_distribution.header_label,
        suite=repo_release.suite or repo_release.key,
        series=availability.series.version,
        series_label=series_label(availability.series.version),
        mirror_base=mirror_obj.base_url,
        arch=arch,
        module_hotfixes=repo_release.module_hotfixes,
        debug_component=repo_distribution.debug_component,
    )
    share_query = f"distro={chosen.distribution.slug}&release={chosen.key}&version={version}"
    share_query += f"&mirror={mirror_obj.mirror_id}" + (f"&arch={arch}" if arch else "")
    site = settings.SITE_URL.rstrip("/") + reverse("repoconfig:generator")
    try:
        config = render(choice, fmt=fmt, created=now or timezone.now(), site_url=site)
    except RenderError as error:
        raise UnsupportedChoice(str(error)) from None

    today = today or timezone.localdate()
    warnings = []
    if availability.series.is_eol(today):
        warnings.append(
            f"MariaDB {version} reached its end of life on {availability.series.eol_date:%d %B %Y}: "
            "it gets no more fixes, security fixes included. Choose a maintained series."
        )
    for rel in {chosen, repo_release}:
        if rel.is_eol(today):
            warnings.append(f"{rel.label} reached its end of life on {rel.eol_date:%d %B %Y}.")
    return Generated(config, chosen, availability, mirror_obj, warnings, share_query)


def unusable_mirror_reason(mirror: Mirror) -> str:
    usable = list(Mirror.objects.for_country(None).values_list("mirror_id", flat=True))
    if not usable:
        return (
            f"mirror {mirror.mirror_id} is {mirror.problem} and no other is usable: try again later"
        )
    return f"mirror {mirror.mirror_id} is {mirror.problem}; choose one of {', '.join(usable)}"


def options(today=None) -> dict:
    """Every valid choice, for the form's selects and GET /api/repo-config/options."""
    today = today or timezone.localdate()
    releases = list(DistributionRelease.objects.with_related())
    availability: dict[int, list[dict]] = {}
    rows = Availability.objects.select_related("series")
    # Newest first by meaning: as text, "10.6" would sort before "10.11".
    for row in sorted(rows, key=lambda row: series_sort_key(row.series.version), reverse=True):
        availability.setdefault(row.release_id, []).append(
            {
                "version": row.series.version,
                "label": series_label(row.series.version),
                "eol": row.series.is_eol(today),
                "architectures": row.architecture_list,
            }
        )
    distros: dict[str, dict] = {}
    for rel in releases:
        distribution = rel.distribution
        entry = distros.setdefault(
            distribution.slug,
            {
                "slug": distribution.slug,
                "name": distribution.name,
                "family": distribution.family,
                "releases": [],
            },
        )
        entry["releases"].append(
            {
                "key": rel.key,
                "name": rel.name,
                "label": rel.label,
                "eol": rel.is_eol(today),
                "eol_date": rel.eol_date.isoformat() if rel.eol_date else None,
                "versions": availability.get(rel.repository_release.pk, []),
            }
        )
    mirrors = [
        {
            "id": m.mirror_id,
            "name": m.name,
            "country": m.country,
            "usable": m.usable,
            "problem": m.problem,
        }
        for m in Mirror.objects.offered()
    ]
    return {"distributions": list(distros.values()), "mirrors": mirrors}


def form_choices(options: dict) -> dict:
    """Flat lists for the selects that work without JavaScript."""
    series: dict[str, dict] = {}
    arches: list[str] = []
    for distribution in options["distributions"]:
        for release in distribution["releases"]:
            for version in release["versions"]:
                series.setdefault(version["version"], version)
                arches += [a for a in version["architectures"] if a not in arches]
    ordered = sorted(series.values(), key=lambda v: series_sort_key(v["version"]), reverse=True)
    return {"series_choices": ordered, "arch_choices": arches}
