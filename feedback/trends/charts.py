"""Chart specifications for the dashboard: one structure feeds the canvas, the data
table beside it and the CSV and JSON downloads, so the three always show the same
figures. Charts of type "table" are tables only (no canvas)."""

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django_countries import countries

from core.opendata import Field, withheld
from feedback.anonymity import OTHER, minimum_servers, withheld_label
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
    "reach": "upgrades", "lag": "upgrades", "exposure": "upgrades",
}  # fmt: skip
# Lines that coincide must stay distinguishable (issue 49: two adoption lines with the same
# figures hid each other): each line of a chart has its own dash pattern and point marker
# besides its colour, no two lines of a chart (up to 30: 5 dashes by 6 markers) the same pair. The canvas
# draws them as given here (static/js/trends.js); the data table below holds the figures.
LINE_DASHES = [[], [6, 4], [2, 3], [10, 3, 2, 3], [12, 3, 3, 3, 3, 3]]
POINT_STYLES = ["circle", "rect", "triangle", "rectRot", "star", "crossRot"]


def line_style(index: int) -> dict:
    """The dash pattern (canvas setLineDash) and point marker of a chart's ``index``-th line."""
    return {
        "dash": LINE_DASHES[index % len(LINE_DASHES)],
        "point": POINT_STYLES[index % len(POINT_STYLES)],
    }


def sections(charts: list[dict]) -> list[dict]:
    """The charts grouped under their headings (empty sections left out)."""
    grouped: list[dict[str, Any]] = [
        {"id": section_id, "title": title, "charts": []} for section_id, title in SECTIONS
    ]
    by_id = {section["id"]: section for section in grouped}
    for chart in charts:
        by_id[SECTION_OF.get(chart["id"], "features")]["charts"].append(chart)
    return [section for section in grouped if section["charts"]]


def cell(value):
    """A figure as tables and files show it: withheld counts say so, never 0."""
    return withheld_label() if value is None else value


def rule() -> str:
    """The withholding rule, as the schemas and captions state it."""
    return (
        f"a count of {withheld_label()} servers is never published on its own "
        "(the anonymity minimum), and is never written as 0; nor is a count that the "
        "published total and the other counts would reveal (it is withheld with the "
        "smallest other one)"
    )


def withheld_caption() -> str:
    return (
        f"A hatched mark on the axis is a withheld figure ({withheld_label()} servers, "
        "or withheld so that it cannot be worked out from the total): it has no bar, since "
        "its height is not known."
    )


# The typed columns of the chart downloads (each chart's "export": fields and rows).
PERIOD_START = Field("period_start", "date", "First day of the period (ISO 8601)", required=True)
COMPLETE = Field(
    "complete", "boolean", "false for the period still under way (its figures will grow)"
)
REPORTS_BEGIN = Field(
    "reports_begin",
    "date",
    "The day of the first report, on the one period that began before it (that period's "
    "figures cover only the days from it); empty on every other row",
)
FROM = Field("period_start", "date", "First day counted (ISO 8601)", required=True)
TO = Field("period_end", "date", "Last day counted (ISO 8601)", required=True)
SERVERS = Field("servers", "integer", "Distinct servers", unit="servers", minimum=0)
SHARE = Field(
    "share_percent",
    "number",
    "servers as a percentage of all servers that reported in the period (a server can "
    "count under several values of a multi-valued dimension)",
    unit="percent",
    minimum=0,
)


def servers_withheld() -> Field:
    return withheld("servers", rule())


def export(fields: list[Field], rows: list[list]) -> dict:
    return {"fields": fields, "rows": rows}


def for_page(chart: dict) -> dict:
    """The chart as the page embeds it (the typed export stays on the server)."""
    return {key: value for key, value in chart.items() if key != "export"}


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
    text = f"{selected['servers']} servers that sent a full report in {text}"
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
    all_withheld="",
):
    """``cells(label_index, series_name, value)`` gives a table cell; by default a
    withheld (None) value reads "fewer than N". A chart whose every figure is withheld
    has nothing to draw: its ``note`` says so above it (``all_withheld``, or in general
    words), never an empty frame left to be read as zero."""
    cells = cells or (lambda index, name, value: cell(value))
    nothing_drawn = bool(labels) and all(
        value is None for values in series.values() for value in values
    )
    note = (
        all_withheld
        or f"Every figure of this chart is withheld ({withheld_label()} servers in each "
        "period): it has nothing to draw; the table gives each period."
    )
    withheld_points = [
        [
            i
            for i, value in enumerate(values)
            if value is None and cells(i, name, None) == cell(None)
        ]
        for name, values in series.items()
    ]
    return {
        "id": chart_id,
        "incomplete": incomplete,  # the last period is still under way
        "title": title,
        "note": note if nothing_drawn else "",
        "description": description,
        "scope": scope,
        "type": kind,
        "stacked": stacked,
        "horizontal": False,
        "labels": labels,
        "datasets": [
            {
                "label": name,
                "data": values,
                "withheld": points,
                **(line_style(index) if kind == "line" else {}),
            }
            for index, ((name, values), points) in enumerate(
                zip(series.items(), withheld_points, strict=True)
            )
        ],
        "minimum": minimum_servers(),
        "table": {
            "headers": ["Period", *series.keys()],
            "rows": [
                [label, *(cells(i, name, values[i]) for name, values in series.items())]
                for i, label in enumerate(labels)
            ],
        },
    }


def over_time_export(data: dict, series: dict, key: Field | None = None) -> dict:
    """One row per period (and per series, named in the ``key`` column)."""
    labels, begin = data["labels"], data["reports_begin"]
    last = len(labels) - 1
    rows = []
    for index, start in enumerate(labels):
        period = [
            start,
            not (data["incomplete"] and index == last),
            begin if index == 0 and begin and start < begin else None,
        ]
        for name, values in series.items():
            value = values[index]
            rows.append([*period, *([name] if key else []), value, value is None])
    fields = [PERIOD_START, COMPLETE, REPORTS_BEGIN, *([key] if key else [])]
    return export([*fields, SERVERS, servers_withheld()], rows)


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
        "datasets": [{"label": "Servers", "data": values, "withheld": []}],
        "minimum": minimum_servers(),
        "table": {"headers": headers, "rows": rows},
    }


def breakdown_export(selected: dict, counts: dict, total: int, label=str) -> dict:
    """One row per value: its servers and their share of the period's servers."""
    period = [selected["from"], selected["to"]]
    rows = []
    for value, count in counts.items():
        servers = count[0] if isinstance(count, tuple | list) else count
        share = round(100 * servers / total, 1) if total else None
        rows.append([*period, value, label(value), servers, share])
    fields = [
        FROM,
        TO,
        Field(
            "value",
            "string",
            "The value as stored ('other': values merged under the anonymity minimum)",
            required=True,
        ),
        Field("label", "string", "The value as the dashboard names it"),
        SERVERS,
        SHARE,
    ]
    return export(fields, rows)


def table_only(chart_id, title, headers, rows, description="", scope="", empty=""):
    """A table without a canvas; ``empty``: the sentence shown instead of a table none of
    whose cells can hold a figure yet (the downloads still carry its rows)."""
    return {
        "id": chart_id,
        "title": title,
        "description": description,
        "scope": scope,
        "type": "table",
        "labels": [],
        "datasets": [],
        "empty": empty,
        "table": {"headers": headers, "rows": rows},
    }


# What a cell of the release tables holds, as the downloads' ``status`` column names it.
REACHED, NOT_YET, TOO_FEW, BEFORE = "reached", "not_yet", "withheld", "released_before_reports"


def _days(value, reports_begin=None):
    if value is None:
        return "not yet"
    if value == "few":
        return f"too few servers ({withheld_label()})"
    if value == BEFORE_DATA:
        return "before reports began"
    return value


def _status(value) -> str:
    if value is None:
        return NOT_YET
    return {"few": TOO_FEW, BEFORE_DATA: BEFORE}.get(value, REACHED)


def _days_fields(status_description: str) -> list[Field]:
    return [
        Field(
            "days",
            "integer",
            "Days from the release (empty unless status is reached)",
            unit="days",
            minimum=0,
        ),
        Field(
            "status",
            "string",
            status_description,
            required=True,
            enum=(REACHED, NOT_YET, TOO_FEW, BEFORE),
        ),
    ]


RELEASE = Field("release", "string", "MariaDB release", required=True)
RELEASED = Field("released", "date", "Release date (ISO 8601)")


def _before_reports_only(cells: list) -> bool:
    return bool(cells) and all(value == BEFORE_DATA for value in cells)


def _until_data(data: dict) -> str:
    return (
        f"Every release listed here was published before the reports began "
        f"({data['reports_begin']}), so none has a figure: this table fills in as servers "
        "pick up the first release published after that day."
    )


def build(data: dict) -> list[dict]:
    labels = data["display_labels"]
    total = data["latest_total"]
    selected = data["selected"]
    breakdown_scope = scope(data)
    span = (
        f"Per {data['period']}, {data['labels'][0]} to {data['labels'][-1]}; reports begin "
        f"{data['reports_begin']}."
        if data["labels"]
        else ""
    )
    active = over_time(
        "active",
        "Active servers",
        labels,
        {"Servers": data["active"]},
        description="Distinct servers that sent a full report naming their release in each "
        "period, the servers every chart counts; "
        f"a gap: {withheld_label()} servers.",
        incomplete=data["incomplete"],
        scope=span,
    )
    active["export"] = over_time_export(data, {"Servers": data["active"]})
    series = over_time(
        "series",
        "MariaDB series over time",
        labels,
        data["series_over_time"],
        incomplete=data["incomplete"],
        kind="bar",
        stacked=True,
        description="Servers by the major.minor version of their latest full report.",
        scope=span,
    )
    series["links"] = {
        "text": "Who runs each series, month by month, and how fast its releases were picked "
        "up, on the series' page:",
        "pages": [
            {"text": version, "url": reverse("releases:series", args=[version])}
            for version in data.get("series_pages", [])
        ],
    }
    series["export"] = over_time_export(
        data,
        data["series_over_time"],
        Field("series", "string", "MariaDB series (major.minor), or 'other'", required=True),
    )
    charts = [active, series]
    for dimension in ONE_VALUE:
        if dimension == "series" or not data["breakdowns"][dimension]:
            continue
        label = country_label if dimension == "country" else str
        chart = breakdown(
            f"b-{dimension}",
            DIMENSIONS[dimension],
            data["breakdowns"][dimension],
            total=total,
            description=DESCRIPTIONS.get(dimension, ""),
            scope=breakdown_scope,
            label=label,
        )
        chart["export"] = breakdown_export(selected, data["breakdowns"][dimension], total, label)
        charts.append(chart)
    for dimension in MANY_VALUES:
        if data["shares"][dimension]:
            chart = breakdown(
                f"s-{dimension}",
                DIMENSIONS[dimension],
                data["shares"][dimension],
                total=total,
                description=DESCRIPTIONS.get(dimension, ""),
                scope=breakdown_scope,
            )
            chart["export"] = breakdown_export(selected, data["shares"][dimension], total)
            charts.append(chart)
    adoption = data["adoption"]
    if adoption["series"]:
        charts.append(_adoption(data, adoption))
    if data["eol"]["by_distribution"]:
        charts.append(_eol(data, breakdown_scope))
    if data["exposure"]["months"]:
        charts.append(_exposure(data))
    since_reports = f"7-day windows since the reports began ({data['reports_begin']})."
    if data["days_to_reach"]:
        thresholds = data["reach_thresholds"]
        chart = table_only(
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
            empty=_until_data(data)
            if _before_reports_only(
                [v for r in data["days_to_reach"] for v in r["reached"].values()]
            )
            else "",
        )
        chart["export"] = export(
            [
                RELEASE,
                RELEASED,
                Field(
                    "servers_threshold",
                    "integer",
                    "The number of servers to reach",
                    unit="servers",
                    minimum=1,
                ),
                *_days_fields(
                    "reached; not_yet; released_before_reports (its first days "
                    "were never seen, so no figure)"
                ),
            ],
            [
                [r["version"], r["date"], t, _number(r["reached"][t]), _status(r["reached"][t])]
                for r in data["days_to_reach"]
                for t in thresholds
            ],
        )
        charts.append(chart)
    if data["upgrade_lag"] and data["lag_distributions"]:
        families = data["lag_distributions"]
        chart = table_only(
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
            empty=_until_data(data)
            if _before_reports_only([v for r in data["upgrade_lag"] for v in r["lags"].values()])
            else "",
        )
        chart["export"] = export(
            [
                RELEASE,
                Field("distribution", "string", "Linux distribution family", required=True),
                *_days_fields(
                    "reached; not_yet; withheld (" + rule() + "); "
                    "released_before_reports (no figure)"
                ),
            ],
            [
                [r["version"], f, _number(r["lags"][f]), _status(r["lags"][f])]
                for r in data["upgrade_lag"]
                for f in families
            ],
        )
        charts.append(chart)
    for chart in charts:
        chart["downloads"] = downloads(chart["id"], data)
        if any(dataset["withheld"] for dataset in chart["datasets"]) and chart["type"] == "bar":
            chart["description"] = f"{chart['description']} {withheld_caption()}".strip()
    return charts


def _number(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _adoption(data: dict, adoption: dict) -> dict:
    released = adoption["released"]

    def adoption_cell(index, version, value):
        if value is None and adoption["labels"][index] < released[version]:
            return "not released yet"
        return cell(value)

    chart = over_time(
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
    rows = []
    for index, day in enumerate(adoption["labels"]):
        for version, values in adoption["series"].items():
            value = values[index]
            rows.append(
                [day, version, released[version], value, value is None and day >= released[version]]
            )
    chart["export"] = export(
        [
            Field("date", "date", "Last day of the 7-day window (ISO 8601)", required=True),
            RELEASE,
            RELEASED,
            Field(
                "servers",
                "integer",
                "Servers running the release in the window (empty "
                "before its release date, or when withheld)",
                unit="servers",
                minimum=0,
            ),
            servers_withheld(),
        ],
        rows,
    )
    return chart


def _eol(data: dict, breakdown_scope: str) -> dict:
    eol = data["eol"]["by_distribution"]
    chart = breakdown(
        "eol",
        "End-of-life exposure by distribution",
        {row["distribution"]: row["eol"] or 0 for row in eol},
        description="Servers running a series past its end of life, per distribution.",
        scope=breakdown_scope,
    )
    chart["datasets"][0]["data"] = [row["eol"] for row in eol]  # withheld: hatched
    chart["datasets"][0]["withheld"] = [i for i, row in enumerate(eol) if row["eol"] is None]
    chart["table"] = {
        "headers": ["Distribution", "Servers", "On an end-of-life series", "Share"],
        "rows": [
            [
                r["distribution"],
                r["servers"],
                cell(r["eol"]),
                "withheld" if r["share"] is None else f"{r['share']}%",
            ]
            for r in eol
        ],
    }
    selected = data["selected"]
    chart["export"] = export(
        [
            FROM,
            TO,
            Field(
                "distribution",
                "string",
                "Linux distribution family ('other': those under the anonymity minimum)",
                required=True,
            ),
            Field("servers", "integer", "The distribution's servers", unit="servers", minimum=0),
            Field(
                "eol_servers",
                "integer",
                "Of them, servers on a series past its end of life",
                unit="servers",
                minimum=0,
            ),
            withheld("eol_servers", rule() + "; eol_share_percent is then empty too"),
            Field(
                "eol_share_percent",
                "number",
                "eol_servers as a percentage of the distribution's servers",
                unit="percent",
                minimum=0,
            ),
        ],
        [
            [
                selected["from"],
                selected["to"],
                r["distribution"],
                r["servers"],
                r["eol"],
                r["eol"] is None,
                r["share"],
            ]
            for r in eol
        ],
    )
    return chart


def trend_export(trend: dict, reports_begin: str | None) -> dict:
    """The trend API's figures as a typed CSV: per period (or for the window) and value."""
    dimension = trend["dimension"]
    value_field = Field(
        "value", "string", f"{trend['label']} ('other': values merged under the anonymity minimum)"
    )
    if trend["window"]:
        period = [trend["from"], trend["to"]]
        if dimension == "servers":
            count = trend["values"]["servers"]
            return export(
                [FROM, TO, SERVERS, servers_withheld()], [[*period, count, count is None]]
            )
        rows = [
            [*period, value, count, count is None, trend["share_percent"].get(value)]
            for value, count in trend["values"].items()
        ]
        return export([FROM, TO, value_field, SERVERS, servers_withheld(), SHARE], rows)
    rows = []
    for index, start in enumerate(trend["periods"]):
        period = [
            start,
            trend["complete"][index],
            reports_begin if index == 0 and reports_begin and start < reports_begin else None,
        ]
        for value, counts in trend["values"].items():
            count = counts[index]
            rows.append(
                [*period, *([] if dimension == "servers" else [value]), count, count is None]
            )
    key = [] if dimension == "servers" else [value_field]
    return export([PERIOD_START, COMPLETE, REPORTS_BEGIN, *key, SERVERS, servers_withheld()], rows)


def _exposure(data: dict) -> dict:
    """Per month, the share of servers (all, and per series) on a release that a high or
    critical security advisory affects; a withheld share is a gap, never 0."""
    exposure = data["exposure"]
    groups = exposure["groups"]
    names = {name: ("All servers" if name == "all" else name) for name in groups}
    shares = {names[name]: [month["share"] for month in months] for name, months in groups.items()}

    def share_cell(index, name, value):
        return f"{value}%" if value is not None else f"withheld ({withheld_label()} affected)"

    chart = over_time(
        "exposure",
        "Servers on a release with a high or critical security advisory",
        [
            month if complete else f"{month} (incomplete)"
            for month, complete in zip(exposure["months"], exposure["complete"], strict=True)
        ],
        shares,
        description="Per month, the share of reporting servers (all, and per series) whose "
        "release a high or critical advisory affects (/security/), by the version of "
        "their latest full report. A gap: too few affected servers to publish.",
        scope=f"Per month, {exposure['months'][0]} to {exposure['months'][-1]}.",
        cells=share_cell,
        incomplete=not exposure["complete"][-1],
        all_withheld=f"Every month's share is withheld: in each, {withheld_label()} of the "
        "reporting servers ran a release a high or critical advisory affects (or none did), "
        "too few to publish, so the chart has no line to draw. The table gives each month.",
    )
    group_field = Field(
        "series",
        "string",
        "MariaDB series, 'all' for every server, or 'other' (series under the anonymity minimum)",
        required=True,
    )
    rows = [
        [
            month,
            exposure["complete"][index],
            name,
            figures[index]["servers"],
            figures[index]["servers"] is None,
            figures[index]["exposed"],
            figures[index]["exposed"] is None,
            figures[index]["share"],
        ]
        for name, figures in groups.items()
        for index, month in enumerate(exposure["months"])
    ]
    chart["export"] = export(
        [
            PERIOD_START,
            COMPLETE,
            group_field,
            Field(
                "servers", "integer", "Servers whose version is known", unit="servers", minimum=0
            ),
            servers_withheld(),
            Field(
                "affected_servers",
                "integer",
                "Of them, servers on a release a high or critical advisory affects",
                unit="servers",
                minimum=0,
            ),
            withheld("affected_servers", rule() + "; affected_share_percent is then empty too"),
            Field(
                "affected_share_percent",
                "number",
                "affected_servers as a percentage of servers",
                unit="percent",
                minimum=0,
            ),
        ],
        rows,
    )
    return chart
