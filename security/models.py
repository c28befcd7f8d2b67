"""Security advisories: a CVE fixed in MariaDB Server and, per release series, the releases
it affects (``AffectedRange``: from ``introduced``, or the start of the series, up to but
not including ``fixed``, or every release when no release of the series fixes it)."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse

from releases.models import Release, Series
from security.cvss import VectorError, read_vector

ADVISORY_ID_PATTERN = r"CVE-[0-9]{4}-[0-9]{4,7}"


def validate_cvss_v3(vector: str) -> None:
    try:
        read_vector(vector)
    except VectorError as error:
        raise ValidationError(str(error)) from error


class Severity(models.TextChoices):
    LOW = "LOW", "Low"
    MEDIUM = "MEDIUM", "Medium"
    HIGH = "HIGH", "High"
    CRITICAL = "CRITICAL", "Critical"


# The ratings the field exposure figure counts (feedback's dashboard).
SERIOUS = (Severity.HIGH, Severity.CRITICAL)


class AdvisoryQuerySet(models.QuerySet):
    def newest_first(self):
        return self.order_by("-published", "-advisory_id")

    def with_ranges(self):
        return self.prefetch_related(
            models.Prefetch(
                "ranges",
                AffectedRange.objects.select_related(
                    "series", "introduced__series", "fixed__series"
                ),
            )
        )

    def in_series(self, series_version: str):
        return self.filter(ranges__series__version=series_version).distinct()

    def matching(self, *, series="", rating="", year=None, text=""):
        """The list page's and the API's filters, each optional: a series the advisory has
        a range in, a rating, the year published, words of its id, summary or component."""
        advisories = self
        if series:
            advisories = advisories.in_series(series)
        if rating:
            advisories = advisories.filter(rating=rating)
        if year:
            advisories = advisories.filter(published__year=year)
        for word in (text or "").split():
            advisories = advisories.filter(
                models.Q(advisory_id__icontains=word)
                | models.Q(summary__icontains=word)
                | models.Q(component__icontains=word)
                | models.Q(cwe__iexact=word)
            )
        return advisories


class Advisory(models.Model):
    advisory_id = models.CharField(
        "ID",
        max_length=20,
        unique=True,
        validators=[RegexValidator(f"^{ADVISORY_ID_PATTERN}$", "An id like CVE-2026-44171.")],
    )
    aliases = models.JSONField(default=list, blank=True, help_text="e.g. GHSA ids.")
    published = models.DateField(help_text="When the CVE was published.")
    summary = models.TextField(help_text="One sentence, in our own words.")
    component = models.CharField(max_length=100)
    rating = models.CharField(max_length=8, choices=Severity.choices)
    cvss_score = models.DecimalField(
        "CVSS 3 base score",
        max_digits=3,
        decimal_places=1,
        validators=[MinValueValidator(0), MaxValueValidator(10)],
    )
    cvss_vector = models.CharField(
        "CVSS 3 vector",
        max_length=60,
        blank=True,
        validators=[validate_cvss_v3],
        help_text="Empty where no source gives one.",
    )
    cvss_v4_vector = models.CharField("CVSS 4.0 vector", max_length=120, blank=True)
    cvss_v4_score = models.DecimalField(
        "CVSS 4.0 score", max_digits=3, decimal_places=1, null=True, blank=True
    )
    rating_source = models.CharField(max_length=120, blank=True)
    vector_source = models.CharField(max_length=120, blank=True)
    cwe = models.CharField(
        "CWE", max_length=100, blank=True, help_text="e.g. CWE-22, or several with their sources."
    )
    reported_for = models.CharField(
        max_length=200, blank=True, help_text="e.g. an Oracle MySQL CVE that MariaDB also fixed."
    )
    third_party_component = models.BooleanField(default=False)
    references = models.JSONField(default=list, blank=True)
    sources = models.JSONField(default=list, blank=True, help_text="Where the facts were read.")
    note = models.TextField(blank=True, help_text="Where sources disagreed and what was kept.")
    updated_at = models.DateTimeField(auto_now=True)
    modified = models.DateTimeField(
        editable=False,
        help_text="When this advisory's facts last changed (its OSV modified): the day the "
        "advisories file stated them, or when staff changed them.",
    )

    objects = AdvisoryQuerySet.as_manager()

    class Meta:
        ordering = ["-published", "-advisory_id"]
        verbose_name_plural = "advisories"

    def __str__(self):
        return self.advisory_id

    def get_absolute_url(self):
        return reverse("security:advisory", args=[self.advisory_id])


class AffectedRange(models.Model):
    """The releases of one series an advisory affects."""

    class Basis(models.TextChoices):
        GHSA = "mariadb-ghsa", "MariaDB's security advisory (GHSA)"
        DOCS = "mariadb-docs", "MariaDB's CVE table and release notes"
        CVE_RECORD = "cve-record", "The CVE record (another CNA)"
        NVD = "nvd", "NVD"
        STAFF = "staff", "Entered by staff"

    advisory = models.ForeignKey(Advisory, on_delete=models.CASCADE, related_name="ranges")
    series = models.ForeignKey(Series, on_delete=models.PROTECT, related_name="+")
    introduced = models.ForeignKey(
        Release,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The first affected release; empty: from the start of the series.",
    )
    fixed = models.ForeignKey(
        Release,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="advisories_fixed",
        help_text="The first release of the series with the fix; empty: no release fixes it.",
    )
    basis = models.CharField(max_length=14, choices=Basis.choices, default=Basis.STAFF)

    class Meta:
        ordering = ["advisory", "series"]
        constraints = [
            models.UniqueConstraint(fields=["advisory", "series"], name="one_range_per_series")
        ]

    def __str__(self):
        start = self.introduced.version if self.introduced is not None else "the start"
        end = f"before {self.fixed.version}" if self.fixed is not None else "with no fix"
        return f"{self.advisory}: {self.series.version} from {start}, {end}"

    def clean(self):
        for field in ("introduced", "fixed"):
            release = getattr(self, field)
            if release is not None and self.series_id and release.series_id != self.series_id:
                raise ValidationError({field: f"{release} is not a release of {self.series}."})
        if self.introduced and self.fixed and not _key(self.introduced) < _key(self.fixed):
            raise ValidationError({"fixed": "The fix must come after the first affected release."})


def _key(release: Release) -> tuple[int, int, int]:
    return (release.version_major, release.version_minor, release.version_patch)
