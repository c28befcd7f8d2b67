from datetime import UTC, datetime

import factory

from feedback.models import Report, Server


class ServerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Server

    uid = factory.Sequence(lambda n: f"server-{n:04d}")
    first_seen = datetime(2026, 1, 1, tzinfo=UTC)
    last_seen = datetime(2026, 1, 1, tzinfo=UTC)


class ReportFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Report

    server = factory.SubFactory(ServerFactory)
    received_at = datetime(2026, 3, 4, 12, tzinfo=UTC)
    kind = Report.Kind.FULL
    version = "10.11.6-MariaDB"
    version_major = 10
    version_minor = 11
    version_patch = 6
    os = "Linux"
    distribution = "os-release: Debian GNU/Linux 12 (bookworm)"
    architecture = "x86_64"
    cpu_count = 4
    memory_bytes = 8 * 1024**3
    thread_handling = "one-thread-per-connection"
    engines = factory.LazyFunction(lambda: ["InnoDB", "Aria"])
    plugins = factory.LazyFunction(lambda: {"InnoDB": 3, "Aria": 40, "FEEDBACK": 0})
    features = factory.LazyFunction(lambda: {"FEATURE_JSON": 2, "FEATURE_GIS": 0})
    collations = factory.LazyFunction(lambda: {"utf8mb4_general_ci": 10})
