from django.db import models

from releases.models import Series


class MirrorQuerySet(models.QuerySet):
    def usable(self):
        """Active, and neither down nor behind at the last check (unchecked ones count)."""
        return self.filter(active=True).exclude(healthy=False).exclude(fresh=False)

    def offered(self):
        """Active mirrors, the usable ones first, each part in fallback order; the
        generator lists them all and marks those that failed the last check."""
        mirrors = self.filter(active=True).order_by("fallback_order", "country", "name")
        return sorted(mirrors, key=lambda mirror: not mirror.usable)

    def for_country(self, country):
        """Usable mirrors, those in ``country`` first, then by fallback order."""
        in_country = models.Case(
            models.When(country=country or "", then=0),
            default=1,
            output_field=models.IntegerField(),
        )
        return self.usable().order_by(in_country, "fallback_order", "country", "name")


class Mirror(models.Model):
    """A public mirror of the MariaDB repositories; shared with the download pages."""

    mirror_id = models.SlugField(max_length=40, unique=True, help_text="e.g. osuosl")
    name = models.CharField(max_length=120)
    country = models.CharField(max_length=2, help_text="ISO 3166 alpha-2 code")
    base_url = models.URLField(help_text="Full base URL ending in a slash.")
    active = models.BooleanField(default=True)
    fallback_order = models.PositiveSmallIntegerField(
        default=100, help_text="Lower first, among healthy mirrors outside the visitor's country."
    )
    # The latest health check (the periodic task "releases: check mirrors").
    checked_at = models.DateTimeField(null=True, blank=True)
    healthy = models.BooleanField(
        null=True, help_text="Answered the check; empty until the first check."
    )
    fresh = models.BooleanField(
        null=True, help_text="Had the newest release's files, or it is not yet late."
    )
    newest_release_seen = models.CharField(max_length=40, blank=True)
    hours_late = models.PositiveIntegerField(
        null=True, blank=True, help_text="How long the newest release has been missing."
    )
    check_error = models.CharField(max_length=200, blank=True)

    objects = MirrorQuerySet.as_manager()

    class Meta:
        ordering = ["country", "name"]

    def __str__(self):
        return f"{self.name} ({self.country})"

    @property
    def usable(self):
        """Redirects go only to mirrors not known to be down or behind."""
        return self.active and self.healthy is not False and self.fresh is not False

    @property
    def problem(self) -> str:
        """Why the mirror is not usable, in a few words ("" when it is)."""
        if not self.active:
            return "inactive"
        if self.healthy is False:
            return "not answering at the last check"
        if self.fresh is False:
            return "out of date at the last check"
        return ""


def release_label(distribution: str, release: str) -> str:
    """A distribution's name and one of its release names as one label, without saying
    twice the words they share: "CentOS Stream" and "Stream 9" is "CentOS Stream 9"."""
    words, release_words = distribution.split(), release.split()
    for size in range(min(len(words), len(release_words)), 0, -1):
        if [w.casefold() for w in words[-size:]] == [w.casefold() for w in release_words[:size]]:
            release_words = release_words[size:]
            break
    return " ".join(words + release_words)


class Distribution(models.Model):
    class Family(models.TextChoices):
        APT = "apt", "APT (Debian, Ubuntu)"
        YUM = "yum", "DNF/YUM (RHEL and rebuilds, Fedora)"
        ZYPPER = "zypper", "zypper (openSUSE, SLES)"

    slug = models.SlugField(max_length=20, unique=True, help_text="API value, e.g. debian, rocky")
    name = models.CharField(max_length=60)
    family = models.CharField(max_length=6, choices=Family.choices)
    repo_path = models.SlugField(
        max_length=20, help_text="Directory in the repository: debian, ubuntu, rhel, fedora, ..."
    )
    header_label = models.CharField(
        max_length=40, blank=True, help_text="Shown in the .repo header, e.g. RedHatEnterpriseLinux"
    )
    debug_component = models.BooleanField(default=False, help_text="Offer main/debug (Ubuntu).")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "name"]

    def __str__(self):
        return self.name


class DistributionReleaseQuerySet(models.QuerySet):
    def with_related(self):
        return self.select_related("distribution", "base_release__distribution")


class DistributionRelease(models.Model):
    distribution = models.ForeignKey(
        Distribution, on_delete=models.CASCADE, related_name="releases"
    )
    name = models.CharField(max_length=60, help_text='Shown to visitors, e.g. 24.04 "noble"')
    key = models.SlugField(
        max_length=20, help_text="API value: the codename (bookworm, noble) or version (9, 15.6)"
    )
    suite = models.CharField(
        max_length=20,
        blank=True,
        help_text="The apt suite or rpm $releasever in the repository; empty: the same as key.",
    )
    base_release = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="derivatives",
        help_text="Uses this release's repository (Linux Mint on Ubuntu, Rocky on RHEL).",
    )
    eol_date = models.DateField(null=True, blank=True, verbose_name="end-of-life date")
    module_hotfixes = models.BooleanField(default=False, help_text="EL8 needs module_hotfixes = 1")
    order = models.PositiveSmallIntegerField(default=0)

    objects = DistributionReleaseQuerySet.as_manager()

    class Meta:
        ordering = ["distribution__order", "order"]
        constraints = [
            models.UniqueConstraint(fields=["distribution", "key"], name="unique_release_key")
        ]

    def __str__(self):
        return self.label

    @property
    def label(self) -> str:
        """The full name shown to visitors, e.g. "CentOS Stream 9" or "Ubuntu 24.04 "noble"."."""
        return release_label(self.distribution.name, self.name)

    @property
    def repository_release(self):
        """The release whose repository this one uses (itself unless it is a derivative)."""
        return self.base_release or self

    def is_eol(self, today):
        return self.eol_date is not None and self.eol_date < today


class Availability(models.Model):
    """A series is built for a distribution release, for these architectures."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="availability")
    release = models.ForeignKey(
        DistributionRelease, on_delete=models.CASCADE, related_name="availability"
    )
    architectures = models.CharField(
        max_length=120,
        help_text="Space-separated, in the family's names: amd64 arm64 / x86_64 aarch64",
    )

    class Meta:
        verbose_name_plural = "availability"
        constraints = [
            models.UniqueConstraint(fields=["series", "release"], name="unique_series_release")
        ]

    def __str__(self):
        return f"{self.series.version} on {self.release}"

    @property
    def architecture_list(self):
        return self.architectures.split()
