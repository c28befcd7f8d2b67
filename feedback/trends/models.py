from django.db import models


class Rollup(models.Model):
    """Distinct servers that reported in one period, overall or with one dimension value."""

    class Period(models.TextChoices):
        DAY = "day", "Day"
        WEEK = "week", "Week"
        MONTH = "month", "Month"

    period = models.CharField(max_length=5, choices=Period.choices)
    period_start = models.DateField()
    dimension = models.CharField(max_length=30, help_text='"servers" for the overall count')
    value = models.CharField(max_length=200, blank=True)
    servers = models.PositiveIntegerField()

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
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"Rollups up to report {self.last_report_id}"
