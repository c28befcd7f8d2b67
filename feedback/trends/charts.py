"""Chart specifications for the dashboard: one structure feeds the canvas, the data
table beside it and the CSV and JSON downloads, so the three always show the same
figures. Charts of type "table" are tables only (no canvas)."""

from urllib.parse import urlencode

from django.urls import reverse
from django_countries import countries

from feedback.anonymity import OTHER, withheld_label
from feedback.dimensions import DIMENSIONS, MANY_VALUES, ONE_VALUE
from feedback.trends.data import BEFORE_DATA

DESCRIPTIONS = {
    "build": "Who built the server binary, from the suffix of its version string.",
    "distribution": "Linux distribution family; other systems by their name.",
    "distribution_release": "The distribution family and its release.",
    "plugin": "Plugins the server lists as installed and active (not storage engines or "
    "INFORMATION_SCHEMA tables).",
    "engine": "Storage engines with tables in use.",
    "feature": "Servers whose FEATURE_* counter was above zero.",
    "collation": "Collations in use (10.6+ names: utf8_* is counted as utf8mb3_*).",
    "charset": "Character sets of the collations in use.",
    "cpu": "Ordered by size; a range too small to show on its own is merged with its "
    "neighbour and named after the range they cover.",
    "memory": "Ordered by size; a range too small to show on its own is merged with its "
    "neighbour and named after the range they cover.",
    "country": "Looked up offline from the address a report came from when it arrived; "
    "only the country is kept, never the address.",
}
# The dashboard's sections in page order (id, heading), and the section of each chart;
# the share charts (s-engine, s-plugin...) all go under "features".
SECTIONS = [
    ("servers", "Servers over time"),
    ("versions", "Versions and builds"),
    ("platforms", "Platforms"),
    ("countries", "Where servers run"),
    ("hardware", "Hardware"),
    ("features", "Engines, plugins, features and collations"),
    ("upgrades", "Upgrades and end of life"),
]
SECTION_OF = {
    "active": "servers", "series": "servers", "b-version": "versions", "b-build": "versions",
    "b-os": "platforms", "b-distribution": "platforms", "b-distribution_release": "platforms",
    "b-architecture": "platforms", "b-thread_handling": "platforms", "b-country": "countries",
    "b-cpu": "hardware", "b-memory": "hardware", "adoption": "upgrades", "eol": "upgrades",
    "reach": "upgrades", "lag": "upgrades",
}  # fmt: skip


def sections(charts: list[dict]) -> list[dict]:
    """The charts grouped under their headings (empty sections left out)."""
    grouped = [{"id": section_id, "title": title, "charts": []} for section_id, title in SECTIONS]
    by_id = {section["id"]: section for section in grouped}
    for chart in charts:
        by_id[SECTION_OF.get(chart["id"], "features")]["charts"].append(chart)
    return [section for section in grouped if section["charts"]]


def cell(value):
    """A figure as tables and files show it: withheld counts say so, never 0."""
    return withheld_label() if value is None else value


def scope(data: dict) -> str:
    """What the breakdowns count: their period or window and their number of servers."""
    selected = data["selected"]
    if selected["kind"] == "window":
        text = (
            f"the {selected['name'][:-1]} complete days from {selected['from']} to {selected['to']}"
        )
    else:
        text = f"the {data['period']} from {selected['from']} to {selected['to']}"
        if not selected["complete"]:
            text += " (not over yet)"
    text = f"{selected['servers']} servers that sent a report in {text}"
    if data["reports_begin"] and selected["from"] and selected["from"] < data["reports_begin"]:
        text += f"; reports begin {data['reports_begin']}"
    return text


def country_label(code: str) -> str:
    name = countries.name(code) if code != OTHER else ""
    return f"{name} ({code})" if name else code


def downloads(chart_id: str, data: dict) -> dict[str, str]:
    query = {"period": data["period"]}
    if data["window"]:
        query["window"] = data["window"]
    suffix = "?" + urlencode(query)
    return {
        fmt: reverse(f"trends:chart-{fmt}", args=[chart_id]) + suffix for fmt in ("csv", "json")
    }


def over_time(
    chart_id,
    title,
    labels,
    series,
    *,
    kind="line",
    stacked=False,
    description="",
    incomplete=False,
    scope="",
    cells=None,
):
    """``cells(label_index, series_name, value)`` gives a table cell; by default a
    withheld (None) value reads "fewer than N"."""
    cells = cells or (lambda index, name, value: cell(value))
    return {
        "id": chart_id,
        "incomplete": incomplete,  # the last period is still under way
        "title": title,
        "description": description,
        "scope": scope,
        "type": kind,
        "stacked": stacked,
        "horizontal": False,
        "labels": labels,
        "datasets": [{"label": name, "data": values} for name, values in series.items()],
        "table": {
            "headers": ["Period", *series.keys()],
            "rows": [
                [label, *(cells(i, name, values[i]) for name, values in series.items())]
                for i, label in enumerate(labels)
            ],
        },
    }


def breakdown(chart_id, title, counts, *, total=None, description="", scope="", label=str):
    """Counts per value: plain ({value: n}) or with shares ({value: (n, percent)})."""
    values = [counts[v][0] if isinstance(counts[v], tuple | list) else counts[v] for v in counts]
    labels = [label(value) for value in counts]
    headers, rows = (
        ["Value", "Servers"],
        [[name, value] for name, value in zip(labels, values, strict=True)],
    )
    shown = labels
    if total:
        headers.append("Share of servers")
        rows = [[name, value, f"{100 * value / total:.1f}%"] for name, value in rows]
        shown = [f"{name} ({row[2]})" for name, row in zip(labels, rows, strict=True)]
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "scope": scope,
        "type": "bar",
        "horizontal": True,
        "stacked": False,
        "labels": shown,  # bars show the share beside the count
        "datasets": [{"label": "Servers", "data": values}],
        "table": {"headers": headers, "rows": rows},
    }


def table_only(chart_id, title, headers, rows, description="", scope=""):
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "scope": scope,
        "type": "table",
        "labels": [],
        "datasets": [],
        "table": {"headers": headers, "rows": rows},
    }


def _days(value, reports_begin=None):
    if value is None:
        return "not yet"
    if value == "few":
        return f"too few servers ({withheld_label()})"
    if value == BEFORE_DATA:
        return "before reports began"
    return value


def build(data: dict) -> list[dict]:
    labels = data["display_labels"]
    total = data["latest_total"]
    breakdown_scope = scope(data)
    span = (
        f"Per {data['period']}, {data['labels'][0]} to {data['labels'][-1]}; reports begin "
        f"{data['reports_begin']}."
        if data["labels"]
        else ""
    )
    charts = [
        over_time(
            "active",
            "Active servers",
            labels,
            {"Servers": data["active"]},
            description="Distinct servers that sent at least one report in each period.",
            incomplete=data["incomplete"],
            scope=span,
        ),
        over_time(
            "series",
            "MariaDB series over time",
            labels,
            data["series_over_time"],
            incomplete=data["incomplete"],
            kind="bar",
            stacked=True,
            description="Servers by the major.minor version of their latest full report.",
            scope=span,
        ),
    ]
    for dimension in ONE_VALUE:
        if dimension == "series" or not data["breakdowns"][dimension]:
            continue
        charts.append(
            breakdown(
                f"b-{dimension}",
                DIMENSIONS[dimension],
                data["breakdowns"][dimension],
                total=total,
                description=DESCRIPTIONS.get(dimension, ""),
                scope=breakdown_scope,
                label=country_label if dimension == "country" else str,
            )
        )
    for dimension in MANY_VALUES:
        if data["shares"][dimension]:
            charts.append(
                breakdown(
                    f"s-{dimension}",
                    DIMENSIONS[dimension],
                    data["shares"][dimension],
                    total=total,
                    description=DESCRIPTIONS.get(dimension, ""),
                    scope=breakdown_scope,
                )
            )
    adoption = data["adoption"]
    if adoption["series"]:
        released = adoption["released"]

        def adoption_cell(index, version, value):
            if value is None and adoption["labels"][index] < released[version]:
                return "not released yet"
            return cell(value)

        charts.append(
            over_time(
                "adoption",
                "Release adoption",
                adoption["labels"],
                adoption["series"],
                description="Servers running each release among those seen in the 7 days "
                "to each date (servers report weekly). A gap: not released yet, or "
                f"{withheld_label()} servers.",
                scope=f"7-day windows ending {adoption['labels'][0]} to "
                f"{adoption['labels'][-1]}, the first wholly after the reports began "
                f"({data['reports_begin']}).",
                cells=adoption_cell,
            )
        )
    eol = data["eol"]["by_distribution"]
    if eol:
        chart = breakdown(
            "eol",
            "End-of-life exposure by distribution",
            {row["distribution"]: row["eol"] or 0 for row in eol},
            description="Servers running a series past its end of life, per distribution.",
            scope=breakdown_scope,
        )
        chart["datasets"][0]["data"] = [row["eol"] for row in eol]  # withheld: a gap
        chart["table"] = {
            "headers": ["Distribution", "Servers", "On an end-of-life series", "Share"],
            "rows": [
                [
                    r["distribution"],
                    r["servers"],
                    cell(r["eol"]),
                    cell(None) if r["share"] is None else f"{r['share']}%",
                ]
                for r in eol
            ],
        }
        charts.append(chart)
    since_reports = f"7-day windows since the reports began ({data['reports_begin']})."
    if data["days_to_reach"]:
        thresholds = data["reach_thresholds"]
        charts.append(
            table_only(
                "reach",
                "Days for a release to reach N servers",
                ["Release", "Released", *(f"{t} servers" for t in thresholds)],
                [
                    [
                        r["version"],
                        r["date"],
                        *(_days(r["reached"][t], data["reports_begin"]) for t in thresholds),
                    ]
                    for r in data["days_to_reach"]
                ],
                description="Counted in 7-day windows: servers report weekly. A release "
                f"published before the reports began ({data['reports_begin']}) has no figure: "
                "its first days were never seen.",
                scope=since_reports,
            )
        )
    if data["upgrade_lag"] and data["lag_distributions"]:
        families = data["lag_distributions"]
        charts.append(
            table_only(
                "lag",
                "Upgrade lag by distribution (days)",
                ["Release", *families],
                [
                    [r["version"], *(_days(r["lags"][f], data["reports_begin"]) for f in families)]
                    for r in data["upgrade_lag"]
                ],
                description="Days from a release until half of its series' servers on that "
                "distribution ran it or a later release of the series; none for a release "
                f"published before the reports began ({data['reports_begin']}).",
                scope=since_reports,
            )
        )
    for chart in charts:
        chart["downloads"] = downloads(chart["id"], data)
    return charts
