"""Atom feeds of the changes beyond the noise that the regression detector found.

An entry is one change: a run, a metric and a parameter set. Its ``<id>`` is the run's
absolute address under ``SITE_URL`` with a fragment naming the metric and the parameters
(``…/runs/27/#transactions-per-second-threads-8``), so it stays the same however often the
feed is rebuilt. Its ``<published>`` and ``<updated>`` are when the change was measured:
the run's ``measured_at`` where it was recorded, else the start of its date measured
(UTC); only a run whose source does not state the date falls back to when it was
published on this site, and its entry says so."""

from datetime import datetime, time

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.text import slugify

from benchmarks import compare, history, versions
from benchmarks.models import Suite


def _suites(slug=None):
    suites = Suite.objects.with_published_runs()
    return [get_object_or_404(suites, slug=slug)] if slug else list(suites)


class ChangesFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, slug=None):
        return {"slug": slug, "suites": _suites(slug)}

    def title(self, obj):
        if obj["slug"]:
            return f"Benchmark changes beyond the noise: {obj['suites'][0].title}"
        return "Benchmark changes beyond the noise"

    def link(self, obj):
        return obj["suites"][0].get_absolute_url() if obj["slug"] else reverse("benchmarks:index")

    def subtitle(self, obj):
        return (
            "Runs whose result left the spread of the runs before them (lookback z-score), "
            "and server versions worse or better than the version before beyond the noise "
            "(Mann-Whitney U on their repetitions, as the compare page judges)."
        )

    def items(self, obj):
        found = []
        for suite in obj["suites"]:
            runs = list(suite.runs.all())
            on_reference = versions.reference_runs(suite, runs)
            for change in history.changes(on_reference, axis=suite.history_axis):
                found.append({**change, "suite": suite})
            lines = versions.version_lines(runs, versions.reference_hardware(suite, runs))
            for change in versions.changes(lines):
                found.append({**change, "suite": suite})
        found.sort(key=self.item_updateddate, reverse=True)  # newest first across suites
        return found[:50]

    def item_title(self, item):
        return (
            f"{item['kind'].capitalize()}: {item['metric']} {item['change_text']} "
            f"in {item['run'].label} ({item['suite'].title})"
        )

    def item_description(self, item):
        run = item["run"]
        if run.measured_at:
            when = f" Measured on {timezone.localtime(run.measured_at):%Y-%m-%d at %H:%M:%S %Z}."
        elif run.run_date:
            when = f" Measured on {run.run_date:%Y-%m-%d}."
        else:
            when = (
                f" The date measured is {compare.fact(run, 'run_date')}; "
                f"published here on {_published(run):%Y-%m-%d}."
            )
        where = ", ".join(f"{k}={v}" for k, v in item["parameters"].items())
        between = f" It appeared between {item['between']}." if item["between"] else ""
        environment = (
            f" The environment changed there too: {item['environment_change']}."
            if item["environment_change"]
            else ""
        )
        if item["z"] is None:  # between two server versions (benchmarks.versions)
            p = f", p = {item['p']:.3f}" if item["p"] is not None else ""
            return (
                f"{item['metric']}{' at ' + where if where else ''}: {item['after']} against "
                f"{item['before']} at the version before ({item['change_text']}{p})."
                f"{between}{' Measured ' + item['environment_change'] + '.' if environment else ''}"
                f"{when}"
            )
        return (
            f"{item['metric']}{' at ' + where if where else ''}: {item['after']} against "
            f"{item['before']} over the runs before (z = {item['z']:.1f}).{between}{environment}"
            f"{when}"
        )

    def item_link(self, item):
        return item["run"].get_absolute_url()

    def item_guid(self, item):
        where = "-".join(f"{key}-{value}" for key, value in sorted(item["parameters"].items()))
        basis = " versions" if item["z"] is None else ""  # a version change is another entry
        fragment = slugify(f"{item['slug']} {where}{basis}")
        return f"{settings.SITE_URL.rstrip('/')}{item['run'].get_absolute_url()}#{fragment}"

    def item_guid_is_permalink(self, item):
        return False

    def item_updateddate(self, item):
        run = item["run"]
        return _measured(run) if (run.measured_at or run.run_date) else _published(run)

    def item_pubdate(self, item):
        return self.item_updateddate(item)


def _measured(run) -> datetime:
    """When the run was measured: its recorded start, else the start of its date (UTC)."""
    return run.measured_at or datetime.combine(
        run.run_date, time(), tzinfo=timezone.get_default_timezone()
    )


def _published(run) -> datetime:
    return run.reviewed_at or run.created_at
