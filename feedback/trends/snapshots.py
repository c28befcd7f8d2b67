"""Dated monthly snapshots: the figures of each complete month, published once and
never changed, under an open licence."""

import csv
import hashlib
import io
import json
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from feedback.anonymity import minimum_servers, withheld_label
from feedback.dimensions import DIMENSIONS, MANY_VALUES, MAPPING_VERSION, ONE_VALUE
from feedback.trends.data import eol_by_distribution, first_report_day, merged
from feedback.trends.models import Rollup, Snapshot
from feedback.trends.periods import period_end
from releases.models import Series

LICENCE = {
    "name": "CC BY 4.0",
    "url": "https://creativecommons.org/licenses/by/4.0/",
    "statement": "MariaDB usage statistics from anonymous feedback reports, published by the "
    "MariaDB Foundation under the Creative Commons Attribution 4.0 International licence: "
    "you may share and adapt them if you credit the MariaDB Foundation.",
    "attribution": "MariaDB Foundation, MariaDB usage statistics from feedback plugin reports",
}
# A month is published once it has been over for this long (late processing settles).
SETTLE = timedelta(days=1)


def _share(servers: int, total: int) -> float:
    return round(100 * servers / total, 1) if total else 0.0


def month_figures(month: date) -> dict:
    counts: dict[str, dict[str, int]] = {}
    for dimension, value, servers in Rollup.objects.filter(
        period="month", period_start=month
    ).values_list("dimension", "value", "servers"):
        counts.setdefault(dimension, {})[value] = servers
    eol_series = {s.version for s in Series.objects.all() if s.is_eol(period_end("month", month))}
    total = counts.get("servers", {}).get("", 0)
    published = {d: merged(counts.get(d, {}), d) for d in [*ONE_VALUE, *MANY_VALUES]}
    return {
        "month": month.strftime("%Y-%m"),
        "from": month.isoformat(),
        "to": (period_end("month", month) - timedelta(days=1)).isoformat(),
        "counts": "Distinct servers that sent at least one report in the month (test traffic "
        "excluded); each dimension counts them by their latest full report of the month.",
        "servers": total,
        "min_bucket_servers": minimum_servers(),
        "withheld": f"values on {withheld_label()} servers are merged into 'other' or, for "
        "ordered ranges, into the neighbouring range",
        "mapping_version": MAPPING_VERSION,
        "dimensions": {
            dimension: {
                "label": DIMENSIONS[dimension],
                "servers": published[dimension],
                "share_percent": {v: _share(n, total) for v, n in published[dimension].items()},
            }
            for dimension in [*ONE_VALUE, *MANY_VALUES]
        },
        "eol_by_distribution": eol_by_distribution(
            counts.get("distribution_series", {}), eol_series
        ),
        "licence": LICENCE,
    }


def publish_complete_months(today: date | None = None) -> list[Snapshot]:
    """Publish a snapshot for every complete month with rollups that has none yet.

    A month that began before the first report is left out: part of its time has no data,
    and its figures would read as a whole month's."""
    today = today or timezone.localdate()
    first_day = first_report_day()
    published = set(Snapshot.objects.values_list("month", flat=True))
    months = set(
        Rollup.objects.filter(period="month", dimension="servers").values_list(
            "period_start", flat=True
        )
    )
    created = []
    for month in sorted(months - published):
        if period_end("month", month) + SETTLE > today or first_day is None or month < first_day:
            continue
        figures = month_figures(month)
        published_at = timezone.now()
        figures["published_at"] = published_at.isoformat()
        text = snapshot_json(figures)
        table = csv_text(figure_rows(figures))
        with transaction.atomic():
            created.append(
                Snapshot.objects.create(
                    month=month,
                    published_at=published_at,
                    data=figures,
                    sha256=sha256(text),
                    csv=table,
                    csv_sha256=sha256(table),
                )
            )
    return created


def snapshot_json(figures: dict) -> str:
    """The published text of a snapshot (its SHA-256 is published with it)."""
    return json.dumps(figures, sort_keys=True, ensure_ascii=False)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def csv_text(rows) -> str:
    """CSV that starts with its header row (no comment line), so any reader opens it."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def figure_rows(figures: dict):
    """A snapshot's figures as CSV rows: month, dimension, value, servers, share."""
    month, total = figures["month"], figures["servers"]
    yield ["month", "dimension", "value", "servers", "share_percent"]
    yield [month, "servers", "", total, 100.0 if total else 0.0]
    for dimension, entry in figures["dimensions"].items():
        for value, servers in entry["servers"].items():
            yield [month, dimension, value, servers, _share(servers, total)]
    for row in figures["eol_by_distribution"]:
        eol = withheld_label() if row["eol"] is None else row["eol"]
        share = withheld_label() if row["share"] is None else row["share"]
        yield [month, "end_of_life", row["distribution"], eol, share]


def snapshot_csv(snapshot: Snapshot) -> str:
    """The CSV as published (snapshots from before the CSV was stored: built the same way)."""
    return snapshot.csv or csv_text(figure_rows(snapshot.data))
