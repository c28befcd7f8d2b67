import hashlib
from datetime import UTC, datetime

import factory
from django.db import connection

from feedback import partitions
from feedback.models import RawReport, Report, Server, TestTrafficRule
from feedback.trends.synthetic import full_report


class RawReportFactory(factory.django.DjangoModelFactory):
    """A stored, pending report; ``body`` is the report as sent (a real-shaped full one)."""

    class Meta:
        model = RawReport

    body = factory.Sequence(full_report)
    received_at = datetime(2026, 3, 4, 12, tzinfo=UTC)
    path = "/rest/v1/post"
    size = factory.LazyAttribute(lambda raw: len(raw.body))
    sha256 = factory.LazyAttribute(lambda raw: hashlib.sha256(raw.body).hexdigest())

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        partitions.create_partitions(connection, [kwargs["received_at"]])  # its month
        return super()._create(model_class, *args, **kwargs)


class ServerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Server

    uid = factory.Sequence(lambda n: f"server-{n:04d}")
    first_seen = datetime(2026, 1, 1, tzinfo=UTC)
    last_seen = datetime(2026, 1, 1, tzinfo=UTC)


class ReportFactory(factory.django.DjangoModelFactory):
    """A processed full report from a Debian 12 server running 10.11.6."""

    class Meta:
        model = Report

    server = factory.SubFactory(ServerFactory)
    received_at = datetime(2026, 3, 4, 12, tzinfo=UTC)
    kind = Report.Kind.FULL
    version = "10.11.6-MariaDB"
    version_major = 10
    version_minor = 11
    version_patch = 6
    version_suffix = "-MariaDB"
    os = "Linux"
    distribution = "os-release: Debian GNU/Linux 12 (bookworm)"
    architecture = "x86_64"
    cpu_count = 4
    memory_bytes = 8 * 1024**3
    thread_handling = "one-thread-per-connection"
    engines = factory.LazyFunction(lambda: ["Aria", "InnoDB"])
    plugins = factory.LazyFunction(
        lambda: {"InnoDB": 3, "Aria": 40, "FEEDBACK": 0, "unix_socket": 0, "MyISAM": 0}
    )
    features = factory.LazyFunction(lambda: {"FEATURE_JSON": 2, "FEATURE_GIS": 0})
    collations = factory.LazyFunction(lambda: {"utf8mb4_general_ci": 10})


class TestTrafficRuleFactory(factory.django.DjangoModelFactory):
    """A report label staff marked as test traffic."""

    __test__ = False

    class Meta:
        model = TestTrafficRule

    kind = TestTrafficRule.Kind.LABEL
    value = "staging db"
    note = "the staging database server"
