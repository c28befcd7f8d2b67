"""Chart specifications for the dashboard: one structure feeds the canvas, the data
table beside it, and the download links, so the three always show the same figures."""

from django.urls import reverse

from feedback.dimensions import DIMENSIONS


def _downloads(dimension, period):
    if not dimension:
        return {}
    return {
        "csv": reverse("trends:trend-csv", args=[dimension]) + f"?period={period}",
        "json": reverse("trends:trend-json", args=[dimension]) + f"?period={period}",
    }


def over_time(chart_id, title, labels, series, period, dimension, kind="line", stacked=False,
              description=""):  # fmt: skip
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "type": kind,
        "stacked": stacked,
        "labels": labels,
        "datasets": [{"label": name, "data": values} for name, values in series.items()],
        "table": {
            "headers": ["Period", *series.keys()],
            "rows": [
                [label, *(values[i] for values in series.values())]
                for i, label in enumerate(labels)
            ],
        },
        "downloads": _downloads(dimension, period),
    }


def breakdown(chart_id, title, counts, period, dimension, unit="Servers", percent_of=None,
              description=""):  # fmt: skip
    labels = list(counts)
    values = [
        counts[label][0] if isinstance(counts[label], tuple) else counts[label] for label in labels
    ]
    headers = ["Value", unit]
    rows = [[label, value] for label, value in zip(labels, values, strict=True)]
    if percent_of:
        headers.append("Share of servers")
        rows = [
            [label, value, f"{100 * value / percent_of:.1f}%"]
            for label, value in zip(labels, values, strict=True)
        ]
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "type": "bar",
        "horizontal": True,
        "stacked": False,
        "labels": labels,
        "datasets": [{"label": unit, "data": values}],
        "table": {"headers": headers, "rows": rows},
        "downloads": _downloads(dimension, period),
    }


def build(data):
    period = data["period"]
    labels = data["labels"]
    total = data["latest_total"]
    charts = [
        over_time("active", "Active servers", labels, {"Servers": data["active"]}, period, "servers",
                  description="Distinct servers that sent at least one report in each period."),
        over_time("series", "MariaDB series over time", labels, data["series_over_time"], period,
                  "series", kind="bar", stacked=True,
                  description="Servers by the major.minor version in their full reports."),
    ]  # fmt: skip
    for dimension in ["os", "distribution", "architecture", "cpu", "memory", "thread_handling"]:
        charts.append(
            breakdown(
                f"b-{dimension}",
                DIMENSIONS[dimension],
                data["breakdowns"][dimension],
                period,
                dimension,
                percent_of=total,
            )
        )
    charts.append(breakdown("features", "Features used", data["features"], period, "feature",
                            percent_of=total,
                            description="Servers whose FEATURE_* counter was above zero."))  # fmt: skip
    charts.append(breakdown("engines", "Storage engines in use", data["engines"], period, "engine",
                            percent_of=total))  # fmt: skip
    if data["releases"]:
        charts.append(
            over_time(
                "releases",
                "Release adoption",
                labels,
                {r["version"]: r["counts"] for r in data["releases"]},
                period,
                "version",
                description="Servers running each published release.",
            )
        )
    return charts
