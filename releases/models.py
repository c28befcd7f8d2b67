from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

from releases import signing_keys
from releases.versions import (
    parse_release_version,
    series_sort_key,
    validate_release_version,
    validate_series_version,
)


class SeriesQuerySet(models.QuerySet):
    def with_release_facts(self):
        """Annotate each series with its published release count, whether one is GA, and
        its highest published version (one query for any number of series)."""
        published = Release.objects.published().filter(series=models.OuterRef("pk"))
        return self.annotate(
            published_count=models.Count(
                "releases", filter=models.Q(releases__is_published=True), distinct=True
            ),
            has_ga=models.Exists(published.filter(maturity=Release.Maturity.GA)),
            latest_version=models.Subquery(
                Release.objects.filter(series=models.OuterRef("pk"))
                .downloadable_first()
                .values("version")[:1]
            ),
        )


class Series(models.Model):
    """A MariaDB release series such as 10.11 or 11.4 (also the repo-config "version")."""

    class Status(models.TextChoices):
        PREVIEW = "preview", "Preview"
        ALPHA = "alpha", "Alpha"
        BETA = "beta", "Beta"
        RC = "rc", "Release candidate"
        STABLE = "stable", "Stable"
        OLD_STABLE = "old-stable", "Old stable"
        EOL = "eol", "End of life"

    class SupportType(models.TextChoices):
        LONG_TERM = "long-term", "Long-term support"
        SHORT_TERM = "short-term", "Short-term support"
        ROLLING = "rolling", "Rolling"
        UNANNOUNCED = "unannounced", "Not announced yet"

    version = models.CharField(
        max_length=20,
        unique=True,
        validators=[validate_series_version],
        help_text="The series identifier, e.g. 10.11, 11.4 or 11.rolling.",
    )
    name = models.CharField(max_length=60, blank=True, help_text="e.g. MariaDB 10.11")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.STABLE)
    support_type = models.CharField(
        max_length=12, choices=SupportType.choices, default=SupportType.SHORT_TERM
    )
    first_release_date = models.DateField(null=True, blank=True)
    eol_date = models.DateField(null=True, blank=True, verbose_name="end-of-life date")
    enterprise_eos_date = models.DateField(
        null=True,
        blank=True,
        verbose_name="enterprise end of support",
        help_text="When MariaDB plc's enterprise support ends, where published.",
    )
    description = models.TextField(blank=True, help_text="Markdown: what this series is.")

    objects = SeriesQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "series"
        ordering = ["-first_release_date", "-version"]

    def __str__(self):
        return self.name or f"MariaDB {self.version}"

    def get_absolute_url(self):
        return reverse("releases:series", kwargs={"series": self.version})

    def is_eol(self, today):
        if self.status == self.Status.EOL:
            return True
        return self.eol_date is not None and self.eol_date < today

    @property
    def is_eol_today(self):
        return self.is_eol(timezone.localdate())

    @property
    def sort_key(self):
        return series_sort_key(self.version)

    @property
    def is_long_term(self):
        return self.support_type == self.SupportType.LONG_TERM


# Newest first, by number.
VERSION_ORDER = ("-version_major", "-version_minor", "-version_patch")

# Where the project's release notes and changelogs are published.
KNOWLEDGE_BASE = "https://mariadb.com/kb/en/"


class ReleaseQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)

    def by_version(self):
        """Newest version first, by number (11.4.13 after 11.4.9): the one order every page,
        API, feed listing and search gives releases in (``versions.release_sort_key`` is
        the same order for releases already loaded)."""
        return self.order_by(*VERSION_ORDER)

    def downloadable(self):
        """Published releases one can download here: with files recorded, none on their way."""
        files = ReleaseFile.objects.filter(release=models.OuterRef("pk"))
        return self.published().filter(files_pending=False).filter(models.Exists(files))

    def downloadable_first(self):
        """Published releases in the order `latest` chooses from: those with files, newest
        first, then those without (newest first); a release whose files are still on their
        way is left out, so `.first()` is the release a script can download (or, in a series
        with no file recorded at all, its newest release)."""
        files = ReleaseFile.objects.filter(release=models.OuterRef("pk"))
        return (
            self.published()
            .filter(files_pending=False)
            .annotate(has_files=models.Exists(files))
            .order_by("-has_files", *VERSION_ORDER)
        )

    def latest_in(self, series_version):
        """What `latest` means everywhere (both APIs, the series pages): see downloadable_first."""
        return self.filter(series__version=series_version).downloadable_first().first()

    def ga(self):
        return self.filter(maturity=Release.Maturity.GA)


class Release(models.Model):
    class Maturity(models.TextChoices):
        PREVIEW = "preview", "Preview"
        ALPHA = "alpha", "Alpha"
        BETA = "beta", "Beta"
        RC = "rc", "Release candidate"
        GA = "ga", "Stable (GA)"

    series = models.ForeignKey(Series, on_delete=models.PROTECT, related_name="releases")
    version = models.CharField(
        max_length=40, unique=True, validators=[validate_release_version], help_text="e.g. 10.11.9"
    )
    version_major = models.PositiveSmallIntegerField(editable=False, default=0)
    version_minor = models.PositiveSmallIntegerField(editable=False, default=0)
    version_patch = models.PositiveSmallIntegerField(editable=False, default=0)
    maturity = models.CharField(max_length=10, choices=Maturity.choices, default=Maturity.GA)
    release_date = models.DateField()
    release_notes = models.TextField(blank=True, help_text="Markdown.")
    changelog = models.TextField(blank=True, help_text="Markdown.")
    is_published = models.BooleanField(default=True)
    announcement = models.ForeignKey(
        "foundation.NewsPost", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    mailed_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the announcement went to the mail subscribers (once per release).",
    )
    files_pending = models.BooleanField(
        default=False,
        editable=False,
        help_text="Published without files by staff's choice: they are on their way (cleared "
        "once files are recorded).",
    )

    objects = ReleaseQuerySet.as_manager()

    class Meta:
        ordering = ["-release_date", "-version_major", "-version_minor", "-version_patch"]

    def __str__(self):
        return f"MariaDB {self.version}"

    def save(self, *args, **kwargs):
        self.fill_version_parts()
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse(
            "releases:release", kwargs={"series": self.series.version, "version": self.version}
        )

    def fill_version_parts(self) -> "Release":
        """The numbers releases sort by, from ``version`` (``save`` does it; a bulk write
        calls it)."""
        self.version_major, self.version_minor, self.version_patch = parse_release_version(
            self.version
        )
        return self

    def clean(self):
        major, minor, _ = parse_release_version(self.version)
        if not self.series_id:
            return
        series_major, _, series_minor = self.series.version.partition(".")
        if series_major != str(major) or (series_minor.isdigit() and series_minor != str(minor)):
            raise ValidationError({"version": f"{self.version} does not belong to {self.series}"})

    @property
    def files_note(self) -> str:
        """What the pages and APIs say instead of an empty file list while the files of a
        release published without them are on their way; empty otherwise."""
        if not self.files_pending:
            return ""
        return (
            f"The files of MariaDB {self.version} are on their way to the mirrors: they are "
            "listed with their checksums as soon as they are recorded."
        )

    @property
    def kb_release_notes_url(self) -> str:
        """The release notes in the MariaDB Knowledge Base, linked until staff write their own."""
        return f"{KNOWLEDGE_BASE}mariadb-{self.version.replace('.', '-')}-release-notes/"

    @property
    def kb_changelog_url(self) -> str:
        return f"{KNOWLEDGE_BASE}mariadb-{self.version.replace('.', '-')}-changelog/"

    @property
    def is_prerelease(self):
        return self.maturity != self.Maturity.GA

    @property
    def signing_key(self):
        return signing_keys.key_for(self.release_date)

    @property
    def other_signing_keys(self):
        """The keys that did not sign this release, with the last release date each
        signed (None for the current key), for the note below the recipe."""
        return [
            (key, signing_keys.last_day(key))
            for key in signing_keys.KEYS
            if key != self.signing_key
        ]


# Each recorded digest and its length in hex digits.
CHECKSUM_LENGTHS = {"md5": 32, "sha1": 40, "sha256": 64, "sha512": 128}


class ReleaseFileQuerySet(models.QuerySet):
    def for_architecture(self, architecture):
        """The files that run on ``architecture``: see ReleaseFile.runs_on."""
        return self.filter(architecture__in=[architecture, ""])


# The architectures the release API and /download/ accept; Debian's names mean the same.
ARCHITECTURE_ALIASES = {"amd64": "x86_64", "arm64": "aarch64"}
ARCHITECTURES = ["x86_64", "amd64", "aarch64", "arm64", "ppc64le", "s390x", "i686"]


class ReleaseFile(models.Model):
    class OS(models.TextChoices):
        SOURCE = "source", "Source code"
        LINUX = "linux", "Linux (generic)"
        WINDOWS = "windows", "Windows"

    class PackageType(models.TextChoices):
        SOURCE_TAR = "tar.gz", "Source tarball"
        BINARY_TAR = "bintar", "Binary tarball"
        MSI = "msi", "MSI installer"
        ZIP = "zip", "ZIP archive"

    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="files")
    os = models.CharField(max_length=10, choices=OS.choices)
    architecture = models.CharField(
        max_length=20, blank=True, help_text="e.g. x86_64; empty for source"
    )
    package_type = models.CharField(max_length=10, choices=PackageType.choices)
    file_name = models.CharField(max_length=200)
    path = models.CharField(
        max_length=300, help_text="Relative to a mirror's base URL, e.g. mariadb-10.11.9/source/..."
    )
    size = models.BigIntegerField(null=True, blank=True, help_text="Bytes")
    md5 = models.CharField(max_length=32, blank=True, help_text="Empty when not recorded.")
    sha1 = models.CharField(max_length=40, blank=True, help_text="Empty when not recorded.")
    sha256 = models.CharField(max_length=64, blank=True, help_text="Empty when not recorded.")
    sha512 = models.CharField(max_length=128, blank=True, help_text="Empty when not recorded.")
    signature_path = models.CharField(
        max_length=300, blank=True, help_text="Mirror-relative path of the detached GPG signature"
    )
    signature = models.TextField(
        blank=True, help_text="The ASCII-armoured detached signature, when it was read."
    )
    sources = models.TextField(
        blank=True, help_text="Where the recorded facts come from (one per line)."
    )
    order = models.PositiveSmallIntegerField(default=0)

    objects = ReleaseFileQuerySet.as_manager()

    class Meta:
        ordering = ["order", "os", "architecture", "file_name"]
        constraints = [
            models.UniqueConstraint(fields=["release", "file_name"], name="unique_release_file")
        ]

    def __str__(self):
        return self.file_name

    def runs_on(self, architecture):
        """A file built for no architecture (source, noarch) suits every one, so choosing
        x86_64 still shows the source tarball. ReleaseFileQuerySet.for_architecture is
        the same rule for a query."""
        return self.architecture in (architecture, "")

    def signature_url(self, mirror) -> str | None:
        """Where this file's detached signature is on ``mirror`` (None without a mirror or
        a signature path): the one place pages and both APIs ask."""
        if mirror is None or not self.signature_path:
            return None
        return mirror.base_url + self.signature_path

    def signature_for_api(self, mirror) -> str | None:
        """This file's signature as the APIs' ``signature`` gives it: the armoured text
        when it was read from the archive, else the address of the ``.asc`` to fetch;
        null only when the file has no signature at all."""
        return self.signature or self.signature_url(mirror)

    @property
    def directory(self):
        """The file's directory on a mirror (where sha256sums.txt and friends live)."""
        return self.path.rpartition("/")[0]

    def clean(self):
        if not self.path.endswith(self.file_name):
            raise ValidationError({"path": "The path must end with the file name."})
        if self.path.startswith(("/", "http")) or ".." in self.path:
            raise ValidationError({"path": "Give a path relative to the mirror's base URL."})
        for field, length in CHECKSUM_LENGTHS.items():
            value = getattr(self, field)
            if (value and len(value) != length) or any(c not in "0123456789abcdef" for c in value):
                raise ValidationError({field: f"Expected {length} lower-case hex digits."})


class DownloadCountQuerySet(models.QuerySet):
    def per_release(self):
        """Totals per release, OS and architecture, most downloaded first."""
        return (
            self.values("release__version", "os", "architecture")
            .annotate(total=models.Sum("count"))
            .order_by("-total", "-release__version")
        )


class DownloadCount(models.Model):
    """Downloads through this site's redirect, per release, OS, architecture and day.
    Nothing about the client is kept: no address, no agent, no time of day."""

    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="download_counts")
    os = models.CharField(max_length=10, choices=ReleaseFile.OS.choices)
    architecture = models.CharField(max_length=20, blank=True)
    day = models.DateField()
    count = models.PositiveIntegerField(default=0)

    objects = DownloadCountQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["release", "os", "architecture", "day"], name="unique_download_count"
            )
        ]

    def __str__(self):
        return f"{self.release} {self.os} {self.architecture}: {self.count} on {self.day}"


class AnnouncementSubscriberQuerySet(models.QuerySet):
    def confirmed(self):
        return self.filter(confirmed_at__isnull=False)


class AnnouncementSubscriber(models.Model):
    """An address that asked for a mail when a release is published (double opt-in: only
    confirmed addresses get announcements). Nothing else about the visitor is kept."""

    email = models.EmailField(unique=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AnnouncementSubscriberQuerySet.as_manager()

    def __str__(self):
        return self.email
