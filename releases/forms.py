"""What staff type in the publishing flow (admin → Releases → Publish a release), the
file filter of the release API and /download/ (one definition for both), and the choice
/download/ makes from what the visitor asked."""

from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import urlencode

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.dateformat import format as format_date

from core import numbers
from releases.catalogue import series_of
from releases.models import ARCHITECTURE_ALIASES, ARCHITECTURES, Release, ReleaseFile, Series
from releases.versions import validate_release_version


class NewReleaseForm(forms.Form):
    version = forms.CharField(
        max_length=40,
        validators=[validate_release_version],
        help_text="e.g. 12.3.4; its series must exist.",
    )
    release_date = numbers.DateField(help_text="YYYY-MM-DD")  # strptime reads other digits
    maturity = forms.ChoiceField(choices=Release.Maturity.choices, initial=Release.Maturity.GA)

    def clean_version(self):
        version = self.cleaned_data["version"]
        existing = Release.objects.filter(version=version).first()
        if existing is not None and existing.is_published:
            raise ValidationError(f"MariaDB {version} is already published.")
        if not Series.objects.filter(version=series_of(version)).exists():
            raise ValidationError(f"There is no series {series_of(version)}: add it first.")
        return version


class PublishForm(forms.Form):
    release_notes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
        help_text="Markdown, shown on the release page. Left empty, "
        "the page links to the Knowledge Base's notes.",
    )
    announcement_title = forms.CharField(max_length=200)
    announcement_summary = forms.CharField(max_length=300, widget=forms.Textarea(attrs={"rows": 2}))
    announcement_body = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 14}),
        help_text="Markdown; the news post as it will go out.",
    )
    without_files = forms.BooleanField(
        required=False,
        label="Publish without files",
        help_text="This stable release has no files yet. Tick to publish it anyway: its page, "
        "/download/ and the APIs say its files are on their way until they are "
        "imported.",
    )

    def __init__(self, *args, needs_files_choice=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.needs_files_choice = needs_files_choice
        if not needs_files_choice:
            del self.fields["without_files"]

    def clean(self):
        data = super().clean()
        if self.needs_files_choice and not data.get("without_files"):
            self.add_error(
                "without_files",
                "No file of this release is recorded. Read the archive again, or tick "
                "“Publish without files” to publish it now.",
            )
        return data


class SubscribeForm(forms.Form):
    """/download/subscribe/: an address to mail when a release is published."""

    email = forms.EmailField(
        label="Your email address",
        max_length=254,
        error_messages={
            "required": "Enter the address to mail.",
            "invalid": "Enter a whole email address, such as dba@example.org.",
        },
    )


class ReleaseFileFilter(django_filters.FilterSet):
    """?os=&arch=&package= on a release's files: the release API's filter, and the one
    /download/ checks the visitor's choice with and lists the files by."""

    os = django_filters.ChoiceFilter(
        choices=ReleaseFile.OS.choices, help_text="Only files for this OS."
    )
    arch = django_filters.ChoiceFilter(
        choices=[(arch, arch) for arch in ARCHITECTURES],
        method="filter_architecture",
        help_text="Only files for this architecture (amd64 means x86_64, arm64 aarch64) "
        "and those built for none, such as the source tarball.",
    )
    package = django_filters.ChoiceFilter(
        field_name="package_type",
        choices=ReleaseFile.PackageType.choices,
        help_text="Only this package type.",
    )

    class Meta:
        model = ReleaseFile
        fields = []

    def filter_architecture(self, queryset, name, value):
        return queryset.for_architecture(ARCHITECTURE_ALIASES.get(value, value))


OS_LABELS = dict(ReleaseFile.OS.choices)
PACKAGE_LABELS = dict(ReleaseFile.PackageType.choices)
# What the notice says when a value in the address is not one the filter knows.
NOT_ON_OFFER = {
    "os": "“{}” is not an operating system on offer: showing the files for every operating system.",
    "arch": "“{}” is not an architecture on offer: showing every architecture.",
    "package": "“{}” is not a package type on offer: showing every package type.",
}


def quoted(value, limit=40):
    """A visitor's value, cut short enough to quote in a notice."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


def default_series(series_list, today, has_ga=lambda s: s.has_ga):
    """The newest long-term series with a stable release that is still supported; failing
    that the newest supported series with a stable release; failing that the newest."""
    supported = [s for s in series_list if has_ga(s) and not s.is_eol(today)]
    long_term = [s for s in supported if s.is_long_term]
    return next(iter(long_term or supported or series_list), None)


def release_label(release):
    return (
        f"{release.version} ({release.get_maturity_display()}, "
        f"{format_date(release.release_date, 'j M Y')})"
    )


@dataclass(frozen=True)
class Note:
    """One sentence of the notice above the files, with a link where one helps."""

    text: str
    url: str = ""
    link_text: str = ""


def download_url(release, **platform):
    query = {"series": release.series.version, "release": release.version}
    query.update({name: value for name, value in platform.items() if value})
    return f"{reverse('releases:download')}?{urlencode(query)}"


class DownloadChoice:
    """What /download/ offers and shows for the visitor's ?series=&release=&os=&arch=
    &package=: only series, releases, operating systems, architectures and package types
    that have a file. A value that cannot be honoured is replaced, in that order (series,
    release, OS, architecture, package), by what the page shows instead, and ``notes`` say
    which and why, as they do when the release shown is not its series' newest.

    ``releases`` are the published releases, highest version first, with their series;
    ``platforms`` maps a release's pk to the (os, architecture, package type) of its files.
    """

    def __init__(self, data, series_list, releases, platforms, today):
        self.notes = []
        self.platforms = platforms
        self.with_files = [r for r in releases if platforms.get(r.pk)]
        self.by_series = defaultdict(list)
        for release in self.with_files:
            self.by_series[release.series_id].append(release)
        newest = {}
        for release in releases:
            newest.setdefault(release.series_id, release)
        self.series_list = [s for s in series_list if self.by_series[s.pk]]
        self.series = self._choose_series(data.get("series", ""), series_list, today)
        self.release = self.series and self._choose_release(
            data.get("release", ""), releases, newest[self.series.pk]
        )
        self.os = self.arch = self.package = ""
        if self.release:
            self._choose_platform(data)

    def has_ga_with_files(self, series):
        return any(r.maturity == Release.Maturity.GA for r in self.by_series[series.pk])

    def _choose_series(self, asked, all_series, today):
        series = next((s for s in self.series_list if s.version == asked), None)
        if series is not None:
            return series
        series = default_series(self.series_list, today, self.has_ga_with_files)
        if asked and series:
            if any(s.version == asked for s in all_series):
                self.notes.append(
                    Note(
                        f"MariaDB {quoted(asked)} has no files on this site yet: "
                        f"showing {series} instead."
                    )
                )
            else:
                self.notes.append(
                    Note(
                        f"There is no published series “{quoted(asked)}”: showing {series} instead."
                    )
                )
        return series

    def _choose_release(self, asked, releases, newest):
        candidates = self.by_series[self.series.pk]
        release = next((r for r in candidates if r.version == asked), None)
        if release is not None:
            return release
        release = next((r for r in candidates if r.maturity == Release.Maturity.GA), None)
        release = release or candidates[0]
        if asked:
            known = next(
                (r for r in releases if r.version == asked and r.series_id == self.series.pk), None
            )
            if known is not None and known.files_pending:
                text = f"{known.files_note} Showing {release.version}, the newest that has files."
            elif known is not None:
                text = (
                    f"MariaDB {asked} has no files on this site yet: showing "
                    f"{release.version} instead."
                )
            else:
                text = (
                    f"“{quoted(asked)}” is not a published release of {self.series}: "
                    f"showing {release.version} instead."
                )
            self.notes.append(Note(text))
        elif newest != release and newest.files_pending:
            self.notes.append(
                Note(f"{newest.files_note} Showing {release.version}, the newest that has files.")
            )
        elif newest != release and not self.platforms.get(newest.pk):
            self.notes.append(
                Note(
                    f"MariaDB {newest.version}, the newest release of {self.series}, has no files "
                    f"on this site yet: showing {release.version}, the newest that has."
                )
            )
        elif newest != release:
            self.notes.append(
                Note(
                    f"MariaDB {newest.version} is a {newest.get_maturity_display().lower()} "
                    f"release: showing {release.version}, the newest stable release of "
                    f"{self.series}."
                )
            )
        return release

    def newest_with(self, os, arch=""):
        """The newest release with a file for ``os`` (and ``arch``): stable first."""
        fits = [
            r
            for r in self.with_files
            if any(p[0] == os and (not arch or p[1] == arch) for p in self.platforms[r.pk])
        ]
        return next((r for r in fits if r.maturity == Release.Maturity.GA), None) or next(
            iter(fits), None
        )

    def _choose_platform(self, data):
        asked = {name: data.get(name, "") for name in NOT_ON_OFFER}
        check = ReleaseFileFilter({k: v for k, v in asked.items() if v})
        check.form.is_valid()
        for name, value in asked.items():
            if value and name in check.form.errors:
                self.notes.append(Note(NOT_ON_OFFER[name].format(quoted(value))))
                asked[name] = ""
        asked["arch"] = ARCHITECTURE_ALIASES.get(asked["arch"], asked["arch"])
        version = self.release.version
        if asked["os"] and asked["os"] not in dict(self.os_choices):
            other = self.newest_with(asked["os"], asked["arch"])
            self.notes.append(
                Note(
                    f"MariaDB {version} has no {OS_LABELS[asked['os']]} file: showing the files "
                    "for every operating system.",
                    *(
                        (
                            download_url(other, os=asked["os"], arch=asked["arch"]),
                            f"The newest release with one is {other.version}.",
                        )
                        if other
                        else ()
                    ),
                )
            )
            asked["os"] = ""
        self.os = asked["os"]
        if asked["arch"] and asked["arch"] not in self.arch_choices:
            of = f"{OS_LABELS[self.os]} " if self.os else ""
            self.notes.append(
                Note(
                    f"MariaDB {version} has no {of}file built for "
                    f"{asked['arch']}: showing every architecture."
                )
            )
            asked["arch"] = ""
        self.arch = asked["arch"]
        if asked["package"] and asked["package"] not in dict(self.package_choices):
            self.notes.append(
                Note(
                    f"MariaDB {version} has no {PACKAGE_LABELS[asked['package']]} "
                    "for this choice: showing every package type."
                )
            )
            asked["package"] = ""
        self.package = asked["package"]

    @property
    def _release_platforms(self):
        return self.platforms.get(self.release.pk, set()) if self.release else set()

    @property
    def os_choices(self):
        offered = {p[0] for p in self._release_platforms}
        return [(value, label) for value, label in ReleaseFile.OS.choices if value in offered]

    @property
    def arch_choices(self):
        return sorted(
            {p[1] for p in self._release_platforms if p[1] and (not self.os or p[0] == self.os)}
        )

    @property
    def package_choices(self):
        offered = {
            p[2]
            for p in self._release_platforms
            if (not self.os or p[0] == self.os) and (not self.arch or p[1] in (self.arch, ""))
        }
        return [(v, label) for v, label in ReleaseFile.PackageType.choices if v in offered]

    def files(self):
        """The chosen release's files that fit the choice (the API's filter)."""
        wanted = {"os": self.os, "arch": self.arch, "package": self.package}
        return ReleaseFileFilter(
            {k: v for k, v in wanted.items() if v}, queryset=self.release.files.all()
        ).qs

    def offer(self):
        """What the page's script needs to keep the selects consistent: every series on
        offer with its releases that have files (newest first) and the one chosen by
        default, and each release's label and (os, architecture, package) triples."""
        series = {}
        for s in self.series_list:
            candidates = self.by_series[s.pk]
            default = next(
                (r for r in candidates if r.maturity == Release.Maturity.GA), candidates[0]
            )
            series[s.version] = {
                "releases": [r.version for r in candidates],
                "default": default.version,
            }
        return {
            "series": series,
            "releases": {
                r.version: {
                    "label": release_label(r),
                    "ga": r.maturity == Release.Maturity.GA,
                    "series": r.series.version,
                    "files": sorted(self.platforms[r.pk]),
                }
                for r in self.with_files
            },
            "os": dict(ReleaseFile.OS.choices),
            "package": dict(ReleaseFile.PackageType.choices),
            "download": reverse("releases:download"),
        }
