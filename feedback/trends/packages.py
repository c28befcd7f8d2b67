"""The Data Package of the usage statistics (``/api/feedback/datapackage.json``): every
chart's CSV and every trend CSV as the dashboard links them (monthly), and the monthly
snapshots' CSVs, each with its Table Schema."""

from django.urls import reverse

from core import opendata
from feedback.anonymity import withheld_label
from feedback.dimensions import DIMENSIONS
from feedback.summary import SUMMARY_FIELDS
from feedback.trends import charts
from feedback.trends.models import Snapshot
from feedback.trends.snapshots import LICENCE, csv_checksum, csv_fields, licence_descriptor

DESCRIPTION = (
    "Counts of distinct MariaDB servers that sent anonymous feedback reports (test traffic "
    "excluded). A value seen on {withheld} servers is never published on its own: "
    "breakdowns merge it into 'other' (ordered ranges into the neighbouring range); a "
    "count over time or per distribution that is withheld is an empty cell with "
    "<field>_withheld true, never 0 and never text. Shares are numbers in percent "
    "(share_percent); dates and periods are ISO 8601; an empty cell is the only missing "
    "value. The chart and trend files take ?period=day|week|month (and the breakdowns "
    "?window=30d|90d|365d) with the same columns; this package lists the monthly ones the "
    "dashboard links. Monthly snapshots never change; each has its own datapackage.json "
    "with its SHA-256. Licence: {statement}"
)


def usage_package(build_url, dashboard_data: dict, trend_dimensions: list[str]) -> dict:
    """``build_url(path)``: the absolute address of a path on this site."""
    resources = []
    for chart in charts.build(dashboard_data) if dashboard_data["labels"] else []:
        export = chart["export"]
        resources.append(
            opendata.resource(
                f"chart-{chart['id']}",
                build_url(chart["downloads"]["csv"]),
                chart["title"],
                " ".join(part for part in (chart["description"], chart["scope"]) if part),
                export["fields"],
            )
        )
    for dimension in trend_dimensions:
        trend = {"dimension": dimension, "window": None, "label": _label(dimension)}
        fields = charts.trend_export({**trend, "periods": [], "values": {}}, None)["fields"]
        resources.append(
            opendata.resource(
                f"trend-{dimension}",
                build_url(reverse("trends:trend-csv", args=[dimension]) + "?period=month"),
                f"{trend['label']} per month",
                f"Servers per month{'' if dimension == 'servers' else ' and value'}, "
                "the last 24 months.",
                fields,
            )
        )
    resources.append(
        opendata.resource(
            "summary",
            build_url(reverse("feedback:summary-csv")),
            "MariaDB usage summary",
            "Servers counted since the first report and every breakdown of them, one row "
            "per value (?days=, ?window= or ?month= chooses another period).",
            SUMMARY_FIELDS,
        )
    )
    index = reverse("trends:snapshots")
    for snapshot in Snapshot.objects.all():
        month = f"{snapshot.month:%Y-%m}"
        resources.append(
            opendata.resource(
                f"snapshot-{month}",
                build_url(f"{index}{month}.csv"),
                f"MariaDB usage statistics, {month} (snapshot)",
                f"The published figures of {month}; never changed. Its own descriptor: "
                f"{build_url(f'{index}{month}.datapackage.json')}.",
                csv_fields(),
                sha256=csv_checksum(snapshot),
            )
        )
    return opendata.package(
        "mariadb-usage-statistics",
        "MariaDB usage statistics",
        DESCRIPTION.format(withheld=withheld_label(), statement=LICENCE["statement"]),
        resources,
        [licence_descriptor()],
    )


def _label(dimension: str) -> str:
    return DIMENSIONS.get(dimension, "Active servers")
