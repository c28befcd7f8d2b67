"""Published benchmark suites in the site search (registered from
``BenchmarksConfig.ready()``)."""

from django.db.models import Max

from benchmarks.models import Run, Suite
from search.models import SearchDocument
from search.sources import Entry, Source, plain_text, register

Kind = SearchDocument.Kind


def _describe_suite(suite):
    return Entry(
        title=suite.title,
        url=suite.get_absolute_url(),
        summary=suite.summary,
        body=plain_text(suite.body),
        # When its newest published run was measured; none when the sources give no date
        # (the day the row was written would read as the day of the benchmark).
        date=suite.runs.published().aggregate(newest=Max("run_date"))["newest"],
    )


def register_sources() -> None:
    register(
        Source(Suite, Kind.BENCHMARK, Suite.objects.published, _describe_suite),
        dependents={Run: lambda run: (Suite, run.suite_id)},  # a run's date dates its suite
    )
