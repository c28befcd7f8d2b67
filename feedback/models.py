"""Feedback reports from MariaDB servers.

``RawReport`` is what the endpoint stores before it answers ``<h1>ok</h1>`` (on
PostgreSQL one partition per month, ``feedback.partitions``);
``Report`` is one parsed row per raw report; ``Server`` is one row per server UID.
The field names of ``Report`` and ``Server`` are read by ``feedback.trends``.
"""

import hashlib

from django.db import models
from django.db.models import Exists, OuterRef

from core.transitions import verb
from feedback.labels import label_key


class ReportJSONField(models.JSONField):
    """A JSONField that keeps Django's multi-row VALUES insert for bulk_create.

    On PostgreSQL, Django 5.2 bulk-inserts through UNNEST of arrays, which makes psycopg
    escape every value in Python: about 6 ms for one 25 KB report. A field with its own
    placeholder opts the model out of that path.
    """

    def get_placeholder(self, value, compiler, connection):
        return "%s"


class RawReportQuerySet(models.QuerySet):
    def pending(self):
        """Stored but not yet processed (the partial index feedback_raw_pending covers it)."""
        return self.filter(status=RawReport.Status.PENDING)

    def resent(self) -> "RawReportQuerySet":
        """Reports with the same content as an earlier one (a lower id; the sha256 index)."""
        earlier = RawReport.objects.filter(sha256=OuterRef("sha256"), pk__lt=OuterRef("pk"))
        return self.filter(Exists(earlier))

    def done(self):
        """Processed or rejected: what retention may prune."""
        return self.exclude(status=RawReport.Status.PENDING)

    def rejected(self):
        return self.filter(status=RawReport.Status.REJECTED)


class RawReport(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        PROCESSED = "processed", "Processed"
        REJECTED = "rejected", "Rejected"

    received_at = models.DateTimeField(db_index=True)
    path = models.CharField(max_length=40, help_text="The URL path the server posted to.")
    size = models.PositiveIntegerField(help_text="Bytes of the report.")
    sha256 = models.CharField(max_length=64)
    # PostgreSQL compresses the column with lz4 (migration 0006), in C, off the request's
    # Python thread.
    body = models.BinaryField(help_text="The report as sent.")
    is_test = models.BooleanField(default=False, help_text="Posted by MariaDB's own test suite.")
    is_resend = models.BooleanField(default=False, help_text="Same content as an earlier report.")
    country = models.CharField(
        max_length=2,
        blank=True,
        help_text="ISO 3166-1 code looked up from the address, which is not kept.",
    )
    # How a report moves (core.transitions): processing accepts or rejects a pending one;
    # staff send processed and rejected ones through again after a parser fix.
    VERBS = {
        "accept": verb(Status.PENDING, to=Status.PROCESSED),
        "reject": verb(Status.PENDING, to=Status.REJECTED),
        "reprocess": verb(Status.PROCESSED, Status.REJECTED, to=Status.PENDING),
    }

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    rejection_reason = models.TextField(blank=True)
    processed_at = models.DateTimeField(null=True, blank=True)

    objects = RawReportQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(
                fields=["id"], name="feedback_raw_pending", condition=models.Q(status="pending")
            ),
            # Resend detection looks digests up by equality: one plain index (a CharField's
            # db_index would add a second, for LIKE, on every insert).
            models.Index(fields=["sha256"], name="feedback_raw_sha256"),
        ]

    def __str__(self):
        return f"Raw report {self.pk} ({self.status})"


class Server(models.Model):
    uid = models.CharField(max_length=64, unique=True)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()
    latest_version = models.CharField(max_length=80, blank=True)
    reports_count = models.PositiveIntegerField(default=0)

    def __str__(self):
        return self.uid


class ReportQuerySet(models.QuerySet):
    def counted(self):
        """Reports that count in public figures: not test traffic."""
        return self.filter(is_test=False)

    def describing(self):
        """The reports a server is counted by, the one rule of every public count of
        servers (the summary, the rollups behind every chart and snapshot): counted full
        reports that say which release the server runs. A server counts in a period when
        it sent one in it, and each breakdown reads its latest one; so the servers over
        time, the series over time and the exposure to advisories count the same servers
        (startup and shutdown reports alone say neither)."""
        return self.counted().filter(kind=Report.Kind.FULL, version_patch__isnull=False)


class Report(models.Model):
    class Kind(models.TextChoices):
        STARTUP = "startup", "Startup"
        SHUTDOWN = "shutdown", "Shutdown"
        FULL = "full", "Full"

    # Not a database foreign key: PostgreSQL cannot reference the partitioned raw reports
    # by id alone (feedback.partitions). Retention drops whole months of raw reports, so
    # the id may name one that is gone; the parsed row is what counts.
    raw = models.OneToOneField(
        RawReport,
        on_delete=models.SET_NULL,
        null=True,
        related_name="report",
        db_constraint=False,
    )
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="reports")
    received_at = models.DateTimeField(db_index=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    is_test = models.BooleanField(
        default=False, help_text="Test traffic: left out of every public figure."
    )
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 code, or empty.")
    user_info = models.CharField(max_length=200, blank=True)

    version = models.CharField(
        max_length=80, blank=True, help_text="e.g. 10.11.6-MariaDB-0+deb12u1"
    )
    version_major = models.PositiveSmallIntegerField(null=True, blank=True)
    version_minor = models.PositiveSmallIntegerField(null=True, blank=True)
    version_patch = models.PositiveSmallIntegerField(null=True, blank=True)
    version_suffix = models.CharField(max_length=60, blank=True)
    os = models.CharField(max_length=60, blank=True, help_text="Uname_sysname, e.g. Linux")
    os_release = models.CharField(max_length=120, blank=True, help_text="Uname_release")
    distribution = models.CharField(max_length=200, blank=True, help_text="Uname_distribution")
    architecture = models.CharField(max_length=40, blank=True, help_text="Uname_machine")
    cpu_count = models.PositiveIntegerField(null=True, blank=True)
    memory_bytes = models.BigIntegerField(null=True, blank=True)
    thread_handling = models.CharField(max_length=60, blank=True)

    engines = ReportJSONField(default=list, blank=True, help_text="Storage engines in use.")
    plugins = ReportJSONField(default=dict, blank=True, help_text="Plugin name to use count.")
    features = ReportJSONField(default=dict, blank=True, help_text="FEATURE_* name to counter.")
    collations = ReportJSONField(default=dict, blank=True, help_text="Collation to use count.")
    extra = ReportJSONField(default=dict, blank=True, help_text="Every other row of the report.")

    objects = ReportQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["kind", "received_at"])]

    def __str__(self):
        return f"{self.get_kind_display()} report from {self.server_id} at {self.received_at}"

    @property
    def series(self):
        if self.version_major is None or self.version_minor is None:
            return ""
        return f"{self.version_major}.{self.version_minor}"


class TestTrafficRuleQuerySet(models.QuerySet):
    def labels(self) -> set[str]:
        """The FEEDBACK_USER_INFO labels marked as test traffic, as ``label_key`` compares
        them (feedback.labels)."""
        return {
            label_key(value)
            for value in self.filter(kind=TestTrafficRule.Kind.LABEL).values_list(
                "value", flat=True
            )
        }

    def server_uids(self) -> set[str]:
        return set(self.filter(kind=TestTrafficRule.Kind.SERVER).values_list("value", flat=True))

    def fingerprint(self) -> str:
        """Changes whenever a rule is added, changed or removed (for caches and rollups)."""
        rules = sorted(self.values_list("kind", "value"))
        return hashlib.sha256(repr(rules).encode()).hexdigest()[:16]


class TestTrafficRule(models.Model):
    """Reports staff marked as test traffic: left out of every public figure and download
    (the staff view keeps them)."""

    __test__ = False  # not a pytest class, whatever its name

    class Kind(models.TextChoices):
        LABEL = "label", "Report label (FEEDBACK_USER_INFO)"
        SERVER = "server", "Server UID"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    value = models.CharField(
        max_length=200,
        help_text="A label is matched whole, ignoring case and spacing (feedback.labels); a "
        "server UID exactly.",
    )
    note = models.CharField(max_length=200, blank=True, help_text="Why it is test traffic.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TestTrafficRuleQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "value"], name="unique_test_traffic_rule")
        ]
        ordering = ["kind", "value"]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.value}"
