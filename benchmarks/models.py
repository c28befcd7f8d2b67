import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

from core.numbers import NumberRefused, parse_version
from core.storage import private
from core.transitions import verb


class SuiteQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)

    def with_published_runs(self):
        """Published suites with their published runs (measurements in import order) and
        public files prefetched: what every public page, download, feed and image shows."""
        runs = Run.objects.published().prefetch_related(
            models.Prefetch("measurements", queryset=Measurement.objects.order_by("id"))
        )
        return self.published().prefetch_related(
            models.Prefetch("runs", queryset=runs),
            models.Prefetch("attachments", queryset=Attachment.objects.published()),
        )


class Suite(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    body = models.TextField(blank=True, help_text="Markdown: method, discussion, conclusions.")
    news_post = models.ForeignKey(
        "foundation.NewsPost",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="benchmark_suites",
    )
    is_published = models.BooleanField(default=False)

    class HistoryAxis(models.TextChoices):
        DATE = "date", "date measured"
        VERSION = "version", "server version"
        COMMIT = "commit", "server commit"

    history_axis = models.CharField(
        max_length=10,
        choices=HistoryAxis.choices,
        default=HistoryAxis.DATE,
        help_text="What the history charts plot the runs against",
    )
    reference_hardware = models.TextField(
        blank=True,
        help_text="The machine the suite's figures are read against; runs on others are "
        "marked and plotted apart. Blank: the hardware most of its runs name",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SuiteQuerySet.as_manager()

    class Meta:
        ordering = ["title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("benchmarks:suite", kwargs={"slug": self.slug})


class RunQuerySet(models.QuerySet):
    def published(self):
        """What the public sees anywhere (pages, downloads, feeds, images, embeds)."""
        return self.filter(status=Run.Status.PUBLISHED)

    def submitted_by(self, user):
        """A contributor's own uploads, newest first, whatever their state."""
        return self.filter(uploaded_by=user).select_related("suite").order_by("-created_at", "-id")


# Provenance a published run must carry: field name -> how a person names it.
PROVENANCE = {
    "run_date": "the date measured",
    "server_version": "the server version",
    "hardware": "the hardware",
    "os": "the operating system",
    "client": "the tool and its version",
    "source": "the source (an article or a CI job)",
}
# What a cited source may leave unsaid (the source itself is never optional).
MAY_BE_UNSTATED = [name for name in PROVENANCE if name != "source"]


def server_version_fields(printed: str) -> dict[str, str]:
    """A server version as stored: ``server_version`` the release it names, the same however
    a server printed it (``10.11.19-MariaDB-0+deb12u1`` and ``10.11.19`` are one version
    in histories, comparisons and filters), and ``server_build`` what it printed when that
    says more. Raises ``core.numbers.NumberRefused`` for text that names no release in
    ASCII digits (full-width digits, a superscript: ``1\N{SUPERSCRIPT ONE}.4.9``)."""
    if not printed.strip():
        return {"server_version": "", "server_build": ""}
    version = parse_version(printed)
    return {
        "server_version": version.release,
        "server_build": printed.strip() if version.suffix else "",
    }


class Run(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "draft: awaiting review"
        PUBLISHED = "published", "published"
        REJECTED = "rejected", "rejected"

    # How a run moves (core.transitions.apply, each move a RunEvent): review publishes or
    # rejects a draft, and a rejected run may still be published; a published run has been
    # seen (pages, feeds, embeds in news) and stays published.
    VERBS = {
        "publish": verb(Status.DRAFT, Status.REJECTED, to=Status.PUBLISHED),
        "reject": verb(Status.DRAFT, to=Status.REJECTED),
    }

    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="runs")
    label = models.CharField(max_length=120, help_text="Shown in legends, e.g. pool-of-threads")
    variant = models.JSONField(
        default=dict,
        blank=True,
        help_text='Key/value tags, e.g. {"thread_handling": "pool-of-threads"}',
    )
    hardware = models.TextField(blank=True)
    os = models.CharField(max_length=200, blank=True, verbose_name="OS")
    server_version = models.CharField(
        max_length=120,
        blank=True,
        help_text="The release measured, e.g. 10.11.19 (stored as the release however the "
        "server printed it)",
    )
    server_build = models.CharField(
        max_length=120,
        blank=True,
        help_text="The version as the server printed it, where it says more than the release: "
        "10.11.19-MariaDB-0+deb12u1",
    )
    server_commit = models.CharField(
        max_length=64, blank=True, help_text="The server's source commit, where known"
    )
    server_config = models.TextField(blank=True, help_text="Relevant server options")
    client = models.CharField(
        max_length=200, blank=True, verbose_name="tool", help_text="Benchmark tool and its version"
    )
    run_date = models.DateField(null=True, blank=True, verbose_name="date measured")
    measured_at = models.DateTimeField(
        null=True, blank=True, help_text="When the measurement started, where it was recorded"
    )
    notes = models.TextField(blank=True)
    source = models.CharField(
        max_length=200, blank=True, help_text="Where the figures come from: an article, a CI job"
    )
    source_url = models.URLField(max_length=500, blank=True, verbose_name="source URL")
    unstated = models.JSONField(
        default=list,
        blank=True,
        help_text='Provenance fields the cited source does not state, e.g. ["run_date"]',
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    review_note = models.TextField(
        blank=True, help_text="Why the run was rejected; the uploader sees it"
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    details = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the tool reported about itself, per imported file: version, options, JDK…",
    )
    order = models.PositiveSmallIntegerField(default=0)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering = ["suite", "order", "id"]
        permissions = [
            ("publish_run", "Can publish benchmark runs: uploads skip review; may review drafts")
        ]

    def __str__(self):
        return f"{self.suite}: {self.label}"

    def get_absolute_url(self):
        return reverse("benchmarks:run", kwargs={"slug": self.suite.slug, "pk": self.pk})

    def clean(self):
        """A version typed in the admin is stored as uploads store it; a printed build kept
        from before stays only while it names the same release."""
        try:
            fields = server_version_fields(self.server_version)
        except NumberRefused as error:
            raise ValidationError({"server_version": str(error)}) from error
        build = fields["server_build"] or self.server_build
        if build and build != fields["server_build"]:
            try:
                same = parse_version(build).release == fields["server_version"]
            except NumberRefused:
                same = False
            build = build if same else ""
        self.server_version, self.server_build = fields["server_version"], build

    def missing_provenance(self) -> list[str]:
        """What this run lacks before it may be published, as a person names it."""
        cited = bool(self.source or self.source_url)
        unstated = set(self.unstated or []) & set(MAY_BE_UNSTATED) if cited else set()
        return [
            name
            for field, name in PROVENANCE.items()
            if field not in unstated
            and getattr(self, field) in (None, "")
            and not (field == "source" and cited)
        ]


class RunEvent(models.Model):
    """Every status change of a run (its review), with who made it, when and why."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=12, blank=True)
    to_status = models.CharField(max_length=12)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True, help_text="The reason given for a rejection")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self):
        return f"{self.from_status} → {self.to_status}"


class Measurement(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="measurements")
    metric = models.CharField(max_length=120, help_text="e.g. transactions per second")
    unit = models.CharField(max_length=40, blank=True)
    higher_is_better = models.BooleanField(default=True)
    parameters = models.JSONField(default=dict, blank=True, help_text='e.g. {"threads": 64}')
    value = models.FloatField()
    minimum = models.FloatField(null=True, blank=True)
    median = models.FloatField(null=True, blank=True)
    maximum = models.FloatField(null=True, blank=True)
    stddev = models.FloatField(null=True, blank=True)
    samples = models.JSONField(default=list, blank=True)
    display = models.CharField(
        max_length=60, blank=True, help_text="As the source wrote it, e.g. 20h24"
    )
    headline = models.BooleanField(
        default=True, help_text="Charted on the suite page; other figures are charted on demand"
    )

    class Meta:
        ordering = ["run", "metric", "id"]

    def __str__(self):
        return f"{self.metric} = {self.value} {self.unit}"


def raw_file_path(attachment, filename):
    """A folder per file, so two uploads of ``sysbench.txt`` never meet."""
    return f"benchmarks/raw/{timezone.now():%Y}/{secrets.token_urlsafe(12)}/{filename}"


class AttachmentQuerySet(models.QuerySet):
    def published(self):
        """Files of published suites that belong to no run or to a published run."""
        return self.filter(suite__is_published=True).filter(
            models.Q(run__isnull=True) | models.Q(run__status=Run.Status.PUBLISHED)
        )

    def reviewable_by(self, user):
        """Files ``user`` may read before they are public: every file for whoever sees
        runs in the admin (the reviewers), the files of their own uploads for others."""
        if user.has_perm("benchmarks.view_run"):
            return self.all()
        if user.is_authenticated:
            return self.filter(run__uploaded_by=user)
        return self.none()


class Attachment(models.Model):
    run = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="attachments")
    # Private: a draft's raw output must not be one leaked address away from the public;
    # every file is handed out by the ``attachment`` view, which checks who asks.
    file = models.FileField(upload_to=raw_file_path, storage=private, max_length=200)
    kind = models.CharField(max_length=20, default="raw", help_text="raw output, script or other")
    parser = models.CharField(
        max_length=40, blank=True, help_text="Importer and version that read it"
    )
    description = models.CharField(max_length=200, blank=True)

    objects = AttachmentQuerySet.as_manager()

    def __str__(self):
        return self.file.name.rsplit("/", 1)[-1]


class SubmissionTokenQuerySet(models.QuerySet):
    def active(self):
        return self.filter(revoked_at__isnull=True)


class SubmissionToken(models.Model):
    """A contributor's personal API token for submitting runs (one per CI machine, say).

    Only a SHA-256 hash of the key is stored: the key is shown once, when it is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="benchmark_tokens"
    )
    name = models.CharField(max_length=80, help_text="e.g. the CI machine that uses it")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(
        max_length=16, editable=False, help_text="The key's first characters, to tell keys apart"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = SubmissionTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "name"],
                condition=models.Q(revoked_at__isnull=True),
                name="benchmark_token_name_unique_per_user",
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"
