from django.conf import settings
from django.db import models
from django.urls import reverse


class SuiteQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)


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
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SuiteQuerySet.as_manager()

    class Meta:
        ordering = ["title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("benchmarks:suite", kwargs={"slug": self.slug})


class Run(models.Model):
    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="runs")
    label = models.CharField(max_length=120, help_text="Shown in legends, e.g. pool-of-threads")
    variant = models.JSONField(
        default=dict,
        blank=True,
        help_text='Key/value tags, e.g. {"thread_handling": "pool-of-threads"}',
    )
    hardware = models.TextField(blank=True)
    os = models.CharField(max_length=200, blank=True, verbose_name="OS")
    server_version = models.CharField(max_length=120, blank=True)
    server_config = models.TextField(blank=True, help_text="Relevant server options")
    client = models.CharField(max_length=200, blank=True, help_text="Benchmark client and version")
    run_date = models.DateField(null=True, blank=True)
    notes = models.TextField(blank=True)
    source = models.CharField(max_length=200, blank=True, help_text="Where the figures come from")
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

    class Meta:
        ordering = ["suite", "order", "id"]

    def __str__(self):
        return f"{self.suite}: {self.label}"

    def get_absolute_url(self):
        return reverse("benchmarks:run", kwargs={"slug": self.suite.slug, "pk": self.pk})


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


class Attachment(models.Model):
    run = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    suite = models.ForeignKey(Suite, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to="benchmarks/raw/%Y/")
    kind = models.CharField(max_length=20, default="raw", help_text="raw output, script or other")
    parser = models.CharField(
        max_length=40, blank=True, help_text="Importer and version that read it"
    )
    description = models.CharField(max_length=200, blank=True)

    def __str__(self):
        return self.file.name.rsplit("/", 1)[-1]
