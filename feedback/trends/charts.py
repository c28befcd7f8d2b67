"""Chart specifications for the dashboard: one structure feeds the canvas, the data
table beside it and the CSV and JSON downloads, so the three always show the same
figures. Charts of type "table" are tables only (no canvas)."""

from urllib.parse import urlencode

from django.urls import reverse

from feedback.dimensions import DIMENSIONS, MANY_VALUES, ONE_VALUE

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
    "cpu": "Ordered by size.",
    "memory": "Ordered by size.",
}


def downloads(chart_id: str, data: dict) -> dict[str, str]:
    query = {"period": data["period"]}
    if data["window"]:
        query["window"] = data["window"]
    suffix = "?" + urlencode(query)
    return {
        fmt: reverse(f"trends:chart-{fmt}", args=[chart_id]) + suffix for fmt in ("csv", "json")
    }


def over_time(
    chart_id, title, labels, series, *, kind="line", stacked=False, description="", incomplete=False
):
    return {
        "id": chart_id,
        "incomplete": incomplete,  # the last period is still under way
        "title": title,
        "description": description,
        "type": kind,
        "stacked": stacked,
        "horizontal": False,
        "labels": labels,
        "datasets": [{"label": name, "data": values} for name, values in series.items()],
        "table": {
            "headers": ["Period", *series.keys()],
            "rows": [
                [label, *(values[i] for values in series.values())]
                for i, label in enumerate(labels)
            ],
        },
    }


def breakdown(chart_id, title, counts, *, total=None, description=""):
    """Counts per value: plain ({value: n}) or with shares ({value: (n, percent)})."""
    labels = list(counts)
    values = [counts[v][0] if isinstance(counts[v], tuple | list) else counts[v] for v in labels]
    headers, rows = (
        ["Value", "Servers"],
        [[label, value] for label, value in zip(labels, values, strict=True)],
    )
    if total:
        headers.append("Share of servers")
        rows = [[label, value, f"{100 * value / total:.1f}%"] for label, value in rows]
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "type": "bar",
        "horizontal": True,
        "stacked": False,
        "labels": labels,
        "datasets": [{"label": "Servers", "data": values}],
        "table": {"headers": headers, "rows": rows},
    }


def table_only(chart_id, title, headers, rows, description=""):
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "type": "table",
        "labels": [],
        "datasets": [],
        "table": {"headers": headers, "rows": rows},
    }


def _days(value):
    if value is None:
        return "not yet"
    if value == "few":
        return "too few servers"
    return value


def build(data: dict) -> list[dict]:
    labels = data["display_labels"]
    total = data["latest_total"]
    charts = [
        over_time(
            "active",
            "Active servers",
            labels,
            {"Servers": data["active"]},
            description="Distinct servers that sent at least one report in each period.",
            incomplete=data["incomplete"],
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
                )
            )
    adoption = data["adoption"]
    if adoption["series"]:
        charts.append(
            over_time(
                "adoption",
                "Release adoption",
                adoption["labels"],
                adoption["series"],
                description="Servers running each release among those seen in the 7 days "
                "to each date (servers report weekly).",
            )
        )
    eol = data["eol"]["by_distribution"]
    if eol:
        chart = breakdown(
            "eol",
            "End-of-life exposure by distribution",
            {row["distribution"]: row["eol"] for row in eol},
            description="Servers running a series past its end of life, per distribution.",
        )
        chart["table"] = {
            "headers": ["Distribution", "Servers", "On an end-of-life series", "Share"],
            "rows": [[r["distribution"], r["servers"], r["eol"], f"{r['share']}%"] for r in eol],
        }
        charts.append(chart)
    if data["days_to_reach"]:
        thresholds = data["reach_thresholds"]
        charts.append(
            table_only(
                "reach",
                "Days for a release to reach N servers",
                ["Release", "Released", *(f"{t} servers" for t in thresholds)],
                [
                    [r["version"], r["date"], *(_days(r["reached"][t]) for t in thresholds)]
                    for r in data["days_to_reach"]
                ],
                description="Counted in 7-day windows: servers report weekly.",
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
                    [r["version"], *(_days(r["lags"][f]) for f in families)]
                    for r in data["upgrade_lag"]
                ],
                description="Days from a release until half of its series' servers on that "
                "distribution ran it or a later release of the series.",
            )
        )
    for chart in charts:
        chart["downloads"] = downloads(chart["id"], data)
    return charts
