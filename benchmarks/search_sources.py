"""Published benchmark suites in the site search (registered from
``BenchmarksConfig.ready()``)."""

from benchmarks.models import Suite
from search.models import SearchDocument
from search.sources import Entry, Source, plain_text, register

Kind = SearchDocument.Kind


def _describe_suite(suite):
    return Entry(
        title=suite.title,
        url=suite.get_absolute_url(),
        summary=suite.summary,
        body=plain_text(suite.body),
        date=suite.created_at.date(),
    )


def register_sources() -> None:
    register(Source(Suite, Kind.BENCHMARK, Suite.objects.published, _describe_suite))
