from django.db import models


class RollupQuerySet(models.QuerySet):
    def first_report_day(self):
        """The first day with a counted report (the first day rollup): no figure is given
        for time before it. The dashboard, the APIs and the series pages all use it."""
        return (
            self.filter(period="day", dimension="servers")
            .order_by("period_start")
            .values_list("period_start", flat=True)
            .first()
        )


class Rollup(models.Model):
    """Distinct servers that reported in one period, overall or with one dimension value."""

    class Period(models.TextChoices):
        DAY = "day", "Day"
        WEEK = "week", "Week"
        MONTH = "month", "Month"
        ROLLING_7 = "7d", "7 days to"
        ROLLING_30 = "30d", "30 days to"
        ROLLING_90 = "90d", "90 days to"
        ROLLING_365 = "365d", "365 days to"

    period = models.CharField(max_length=5, choices=Period.choices)
    period_start = models.DateField(help_text="For a rolling window: its last day.")
    dimension = models.CharField(max_length=30, help_text='"servers" for the overall count')
    value = models.CharField(max_length=200, blank=True)
    servers = models.PositiveIntegerField()

    objects = RollupQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["period", "period_start", "dimension", "value"], name="unique_rollup"
            )
        ]
        indexes = [models.Index(fields=["period", "dimension", "period_start"])]

    def __str__(self):
        return f"{self.period} {self.period_start} {self.dimension}={self.value}: {self.servers}"


class RollupState(models.Model):
    """Where incremental rollups got to: reports with a higher id are not counted yet."""

    last_report_id = models.BigIntegerField(default=0)
    mapping_version = models.CharField(
        max_length=16,
        blank=True,
        help_text="The mapping and test-traffic rules counted with (rollups.counting_version).",
    )
    windows_end = models.DateField(null=True, blank=True, help_text="Last day of the windows.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"Rollups up to report {self.last_report_id}"


class SnapshotQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PublishedSnapshotError("published snapshots never change")


class PublishedSnapshotError(Exception):
    pass


class Snapshot(models.Model):
    """The published figures of one complete month: written once, never changed."""

    month = models.DateField(unique=True, help_text="The first day of the month.")
    published_at = models.DateTimeField()
    data = models.JSONField()
    sha256 = models.CharField(max_length=64, help_text="Of the JSON as published.")
    csv = models.TextField(blank=True, help_text="The CSV as published.")
    csv_sha256 = models.CharField(max_length=64, blank=True, help_text="Of the CSV as published.")
    datapackage = models.TextField(
        blank=True, help_text="The Data Package descriptor (datapackage.json) as published."
    )

    objects = SnapshotQuerySet.as_manager()

    class Meta:
        ordering = ["-month"]

    def __str__(self):
        return f"Usage snapshot {self.month:%Y-%m}"

    def save(self, *args, **kwargs):
        if self.pk is not None or Snapshot.objects.filter(month=self.month).exists():
            raise PublishedSnapshotError(f"the snapshot of {self.month:%Y-%m} is published")
        super().save(*args, **kwargs)
