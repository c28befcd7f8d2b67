"""Dated monthly snapshots: the figures of each complete month, published once and
never changed, under an open licence."""

import hashlib
import json
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from feedback.anonymity import minimum_servers
from feedback.dimensions import DIMENSIONS, MANY_VALUES, MAPPING_VERSION, ONE_VALUE
from feedback.trends.data import eol_by_distribution, merged
from feedback.trends.models import Rollup, Snapshot
from feedback.trends.periods import period_end
from releases.models import Series

LICENCE = {
    "name": "CC BY 4.0",
    "url": "https://creativecommons.org/licenses/by/4.0/",
    "statement": "MariaDB usage statistics from anonymous feedback reports, published by the "
    "MariaDB Foundation under the Creative Commons Attribution 4.0 International licence: "
    "you may share and adapt them if you credit the MariaDB Foundation.",
}
# A month is published once it has been over for this long (late processing settles).
SETTLE = timedelta(days=1)


def month_figures(month: date) -> dict:
    counts: dict[str, dict[str, int]] = {}
    for dimension, value, servers in Rollup.objects.filter(
        period="month", period_start=month
    ).values_list("dimension", "value", "servers"):
        counts.setdefault(dimension, {})[value] = servers
    eol_series = {s.version for s in Series.objects.all() if s.is_eol(period_end("month", month))}
    return {
        "month": month.strftime("%Y-%m"),
        "servers": counts.get("servers", {}).get("", 0),
        "min_bucket_servers": minimum_servers(),
        "mapping_version": MAPPING_VERSION,
        "dimensions": {
            dimension: {
                "label": DIMENSIONS[dimension],
                "servers": merged(counts.get(dimension, {}), dimension),
            }
            for dimension in [*ONE_VALUE, *MANY_VALUES]
        },
        "eol_by_distribution": eol_by_distribution(
            counts.get("distribution_series", {}), eol_series
        ),
        "licence": LICENCE,
    }


def publish_complete_months(today: date | None = None) -> list[Snapshot]:
    """Publish a snapshot for every complete month with rollups that has none yet."""
    today = today or timezone.localdate()
    published = set(Snapshot.objects.values_list("month", flat=True))
    months = set(
        Rollup.objects.filter(period="month", dimension="servers").values_list(
            "period_start", flat=True
        )
    )
    created = []
    for month in sorted(months - published):
        if period_end("month", month) + SETTLE > today:
            continue
        figures = month_figures(month)
        published_at = timezone.now()
        figures["published_at"] = published_at.isoformat()
        text = snapshot_json(figures)
        with transaction.atomic():
            created.append(
                Snapshot.objects.create(
                    month=month,
                    published_at=published_at,
                    data=figures,
                    sha256=hashlib.sha256(text.encode()).hexdigest(),
                )
            )
    return created


def snapshot_json(figures: dict) -> str:
    """The published text of a snapshot (its SHA-256 is published with it)."""
    return json.dumps(figures, sort_keys=True, ensure_ascii=False)


def snapshot_rows(snapshot: Snapshot):
    """The snapshot as CSV rows: dimension, value, servers."""
    yield ["dimension", "value", "servers"]
    yield ["servers", "", snapshot.data["servers"]]
    for dimension, entry in snapshot.data["dimensions"].items():
        for value, servers in entry["servers"].items():
            yield [dimension, value, servers]
    for row in snapshot.data["eol_by_distribution"]:
        yield ["eol_by_distribution", row["distribution"], row["eol"]]
