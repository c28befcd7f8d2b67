"""Atom feeds of the changes beyond the noise that the regression detector found."""

from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed

from benchmarks import history
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
        return "Runs whose result left the spread of the runs before them (lookback z-score)."

    def items(self, obj):
        found = []
        for suite in obj["suites"]:
            for change in history.changes(list(suite.runs.all()), axis=suite.history_axis):
                found.append({**change, "suite": suite})
        return found[:50]

    def item_title(self, item):
        return (
            f"{item['kind'].capitalize()}: {item['metric']} {item['change_text']} "
            f"in {item['run'].label} ({item['suite'].title})"
        )

    def item_description(self, item):
        where = ", ".join(f"{k}={v}" for k, v in item["parameters"].items())
        between = f" It appeared between {item['between']}." if item["between"] else ""
        environment = (
            f" The environment changed there too: {item['environment_change']}."
            if item["environment_change"]
            else ""
        )
        return (
            f"{item['metric']}{' at ' + where if where else ''}: {item['after']} against "
            f"{item['before']} over the runs before (z = {item['z']:.1f}).{between}{environment}"
        )

    def item_link(self, item):
        return item["run"].get_absolute_url()

    def item_guid(self, item):
        return (
            f"{item['run'].get_absolute_url()}#{item['slug']}-{sorted(item['parameters'].items())}"
        )

    def item_guid_is_permalink(self, item):
        return False

    def item_updateddate(self, item):
        return item["run"].created_at or timezone.now()

    def item_pubdate(self, item):
        return self.item_updateddate(item)
