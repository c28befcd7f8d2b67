"""Dated monthly snapshots: the figures of each complete month, published once and
never changed, under an open licence."""

import hashlib
import json
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from core import opendata
from core.opendata import Field
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
        "counts": "Distinct servers that sent a full report naming their release in the month "
        "(test traffic excluded); each dimension counts them by their latest such report.",
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
                    datapackage=opendata.descriptor_text(descriptor(figures, sha256(text), table)),
                )
            )
    return created


def snapshot_json(figures: dict) -> str:
    """The published text of a snapshot (its SHA-256 is published with it)."""
    return json.dumps(figures, sort_keys=True, ensure_ascii=False)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# The CSV's first format (to 2026-11-26) wrote withheld counts as text; such a stored
# file is served in the typed format, rebuilt from the month's JSON (which never changes).
LEGACY_HEADER = "month,dimension,value,servers,share_percent\n"


def csv_fields() -> list[Field]:
    rule = (
        f"a count of {withheld_label()} servers is never published (the anonymity minimum); "
        "share_percent is then empty too"
    )
    return [
        Field("month", "yearmonth", "The month (ISO 8601, YYYY-MM)", required=True),
        Field(
            "dimension",
            "string",
            "What is counted: servers (all), a dimension such as version or os, or "
            "end_of_life (per distribution: its servers on a series past its end of life)",
            required=True,
        ),
        Field(
            "value",
            "string",
            "The dimension's value ('other': values merged under the anonymity minimum; "
            "for end_of_life the distribution); empty on the servers row",
        ),
        Field("servers", "integer", "Distinct servers", unit="servers", minimum=0),
        opendata.withheld("servers", rule),
        Field(
            "total_servers",
            "integer",
            "The servers the share is taken of: the month's servers, or for end_of_life "
            "rows the distribution's servers",
            unit="servers",
            minimum=0,
        ),
        Field(
            "share_percent",
            "number",
            "servers as a percentage of total_servers",
            unit="percent",
            minimum=0,
        ),
    ]


def csv_text(rows) -> str:
    """CSV that starts with its header row (no comment line), so any reader opens it."""
    return opendata.csv_text(csv_fields(), rows)


def figure_rows(figures: dict):
    """A snapshot's figures as typed CSV rows (``csv_fields``), the header row apart."""
    month, total = figures["month"], figures["servers"]
    yield [month, "servers", "", total, False, total, 100.0 if total else 0.0]
    for dimension, entry in figures["dimensions"].items():
        for value, servers in entry["servers"].items():
            yield [month, dimension, value, servers, False, total, _share(servers, total)]
    for row in figures["eol_by_distribution"]:
        eol = row["eol"]
        yield [
            month,
            "end_of_life",
            row["distribution"],
            eol,
            eol is None,
            row["servers"],
            row["share"],
        ]


def snapshot_csv(snapshot: Snapshot) -> str:
    """The CSV as published (snapshots from before the CSV was stored, or stored in the
    first format: built from the month's JSON)."""
    if snapshot.csv and not snapshot.csv.startswith(LEGACY_HEADER):
        return snapshot.csv
    return csv_text(figure_rows(snapshot.data))


def descriptor(figures: dict, json_sha256: str, table: str) -> dict:
    """The snapshot's Data Package: its CSV (by relative path, with SHA-256 and size) and
    Table Schema, the licence and the rules."""
    month = figures["month"]
    description = (
        f"MariaDB usage statistics for {month}: {figures['counts']} A value seen on "
        f"{withheld_label()} servers is never published on its own: it is merged into "
        "'other' or, for ordered ranges (CPU count, memory), into the neighbouring range; a "
        "withheld end-of-life count is an empty cell with servers_withheld true. The same "
        f"figures with their definitions are in {month}.json (SHA-256 {json_sha256}). "
        f"Licence: {LICENCE['statement']}"
    )
    found = opendata.package(
        f"mariadb-usage-{month}",
        f"MariaDB usage statistics, {month}",
        description,
        [
            opendata.resource(
                f"mariadb-usage-{month}",
                f"{month}.csv",
                f"MariaDB usage statistics, {month}",
                "One row per dimension and value of the month.",
                csv_fields(),
                sha256=sha256(table),
                size=len(table.encode()),
            )
        ],
        [licence_descriptor()],
    )
    if figures.get("published_at"):
        found["created"] = figures["published_at"]
    return found


def licence_descriptor() -> dict:
    return {"name": "CC-BY-4.0", "path": LICENCE["url"], "title": LICENCE["name"]}


def snapshot_descriptor(snapshot: Snapshot) -> str:
    """The descriptor as published; for a snapshot from before descriptors were stored,
    built the same way from its JSON."""
    if snapshot.datapackage:
        return snapshot.datapackage
    table = snapshot_csv(snapshot)
    return opendata.descriptor_text(descriptor(snapshot.data, snapshot.sha256, table))


def csv_checksum(snapshot: Snapshot) -> str:
    """The SHA-256 of the CSV as served."""
    if snapshot.csv and snapshot.csv_sha256 and not snapshot.csv.startswith(LEGACY_HEADER):
        return snapshot.csv_sha256
    return sha256(snapshot_csv(snapshot))
