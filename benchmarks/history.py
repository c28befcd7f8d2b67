"""Runs over time and the changes beyond the noise (pure: runs in, dicts out).

A history is the dated runs of one variant of a suite in date order (run date, then the
run's order); for each headline metric and parameter set it lines up one value per run. The
lookback z-score (``stats.lookback_z``) flags a run whose value leaves the spread of the
runs before it: a regression when it moved the wrong way for the metric, otherwise an
improvement."""

import json
from collections import OrderedDict

from benchmarks import charts, stats, units
from benchmarks.machines import same_machine
from core.numbers import NumberRefused, parse_version
from core.numbers import version_key as version_key

# What a history's x-axis is called, per Suite.history_axis.
AXIS_TITLES = {"date": "date measured", "version": "server version", "commit": "server commit"}
# Changes of these between two runs in a row are marked on the history: the figures may
# have moved because of them.
WATCHED = [
    ("hardware", "hardware"),
    ("os", "OS"),
    ("client", "tool"),
    ("server_config", "server options"),
    ("server_version", "server version"),
    ("server_commit", "server commit"),
]


def release(text: str) -> str:
    """The release a stored version names (stored versions are releases already; an older
    or odd value is read the same way, and kept as it is when it names none)."""
    try:
        return parse_version(text).release
    except NumberRefused:
        return text


def _ordered(runs, axis="date"):
    def when(run):
        stamp = run.measured_at.isoformat() if run.measured_at else ""
        return (run.run_date is None, run.run_date, stamp, run.order, run.pk)

    if axis == "version":
        return sorted(runs, key=lambda run: (version_key(release(run.server_version)), when(run)))
    return sorted(runs, key=when)


def _on_axis(run, axis) -> bool:
    if axis == "version":
        return bool(run.server_version)
    if axis == "commit":
        return bool(run.server_commit)
    return run.run_date is not None  # undated runs (drivers side by side) are not a history


def axis_label(run, axis="date") -> str:
    if axis == "version":
        return release(run.server_version)
    if axis == "commit":
        return run.server_commit[:10]
    if run.measured_at:  # to the second: runs a minute apart would read the same
        return f"{run.measured_at:%Y-%m-%d %H:%M:%S}"
    return f"{run.run_date:%Y-%m-%d}"


def environment_change(before, after, axis="date") -> str:
    """What changed in the environment from one run to the next ("" if nothing did); the
    history's own axis (the version, the commit) is not counted as a change."""
    skip = {"version": "server_version", "commit": "server_commit"}.get(axis)
    found = []
    for field, label in WATCHED:
        old, new = getattr(before, field), getattr(after, field)
        if field == skip or old == new:
            continue
        if field == "hardware" and same_machine(old, new):  # one machine, two tools' words
            continue
        if field == "server_version" and release(old) == release(new):
            continue
        if field == "server_config":  # only the options that changed
            old_options, new_options = old.split(), new.split()
            old = " ".join(o for o in old_options if o not in new_options)
            new = " ".join(o for o in new_options if o not in old_options)
        found.append(f"{label}: {old or '–'} → {new or '–'}")
    return ", ".join(found)


def histories(runs, min_runs: int = stats.MIN_HISTORY + 1, axis: str = "date"):
    """[{metric, slug, parameters, variant, runs, measurements, values, steps}] for every
    headline metric and parameter set measured in at least ``min_runs`` runs of a variant,
    ordered along the suite's axis (date measured, server version or commit)."""
    slugs = charts.metric_slugs(charts.suite_metrics(runs))
    headline = set(charts.suite_metrics(runs, headline_only=True))
    groups: OrderedDict = OrderedDict()
    for run in _ordered(runs, axis):
        if _on_axis(run, axis):
            groups.setdefault(json.dumps(run.variant, sort_keys=True), []).append(run)
    found = []
    for variant, group in groups.items():
        if len(group) < min_runs:
            continue
        lines: OrderedDict = OrderedDict()
        for run in group:
            for m in run.measurements.all():
                if m.metric in headline:
                    key = (m.metric, json.dumps(m.parameters, sort_keys=True))
                    lines.setdefault(key, []).append((run, m))
        for (metric, parameters), pairs in lines.items():
            if len(pairs) < min_runs:
                continue
            values = [m.value for _, m in pairs]
            found.append(
                {
                    "metric": metric,
                    "slug": slugs[metric],
                    "parameters": json.loads(parameters),
                    "variant": json.loads(variant),
                    "runs": [run for run, _ in pairs],
                    "measurements": [m for _, m in pairs],
                    "values": values,
                    "higher_is_better": pairs[0][1].higher_is_better,
                    "unit": pairs[0][1].unit,
                    "axis": axis,
                    "steps": stats.lookback_z(values),
                }
            )
    return found


def changes(runs, axis="date"):
    """Every flagged change, newest first: {run, metric, slug, parameters, kind, z, before,
    after, percent, change_text, between, environment_change}. ``between`` names the two
    points of the axis (releases, commits, dates) between which the change appeared."""
    found = []
    for history in histories(runs, axis=axis):
        for step in history["steps"]:
            run = history["runs"][step.index]
            previous = history["runs"][step.index - 1] if step.index else None
            value = history["values"][step.index]
            better = (step.z > 0) == history["higher_is_better"]
            described = charts.describe_change(
                step.baseline, value, history["higher_is_better"], history["unit"]
            )
            between = ""
            if previous is not None:
                noun = {"version": "releases", "commit": "commits", "date": "the runs of"}[axis]
                between = f"{noun} {axis_label(previous, axis)} and {axis_label(run, axis)}"
            found.append(
                {
                    "run": run,
                    "metric": history["metric"],
                    "slug": history["slug"],
                    "parameters": history["parameters"],
                    "kind": "improvement" if better else "regression",
                    "z": step.z,
                    "before": units.format_value(step.baseline, history["unit"]),
                    "after": units.format_value(value, history["unit"]),
                    "percent": charts.percent_change(
                        step.baseline, value, history["higher_is_better"]
                    ),
                    "change_text": described["text"] if described else "–",
                    "between": between,
                    "environment_change": environment_change(previous, run, axis)
                    if previous is not None
                    else "",
                }
            )
    position = {run.pk: index for index, run in enumerate(_ordered(runs, axis))}
    found.sort(key=lambda change: position[change["run"].pk], reverse=True)
    return found


# How the history judges a run, for the page that shows it (the numbers live in stats).
RULE = {
    "band_sd": stats.BAND_SD,
    "window": stats.LOOKBACK,
    "threshold": f"{stats.Z_THRESHOLD:g}",
    "min_history": stats.MIN_HISTORY,
}


def _unjudged(judged) -> str:
    """Why a run has no band: too few runs before it for the detector to judge it."""
    where = "since the change" if judged.since_change else "before"
    runs = {0: "no run", 1: "1 run"}.get(judged.count, f"{judged.count} runs")
    return f"none: {runs} {where}, {stats.MIN_HISTORY} needed"


def history_chart(history, index: int = 0) -> dict:
    """A metric's history as a chart spec: one point per run, the band the mean ± 2 standard
    deviations of the runs before it, the flagged runs marked."""
    values = history["values"]
    factor, unit = units.scale(values, history["unit"])
    bands = stats.noise_bands(values)
    judged = stats.lookback(values)
    slug = f"history-{history['slug']}-{index}"
    title = f"{history['metric']} ({unit})" if unit else history["metric"]
    where = ", ".join(
        f"{k}={v}" for k, v in {**history["variant"], **history["parameters"]}.items()
    )
    axis = history.get("axis", "date")
    labels = [axis_label(run, axis) for run in history["runs"]]
    flagged = {step.index for step in history["steps"]}
    changed = {
        i: environment_change(before, after, axis)
        for i, (before, after) in enumerate(
            zip(history["runs"], history["runs"][1:], strict=False), start=1
        )
    }
    changed = {i: text for i, text in changed.items() if text}
    rows = []
    for i, (label, run, m) in enumerate(
        zip(labels, history["runs"], history["measurements"], strict=True)
    ):
        band = bands[i]
        rows.append(
            [
                label,
                run.label,
                charts.cell(m, factor),
                _unjudged(judged[i])
                if band is None
                else f"{units.format_in(band[0], factor)}–{units.format_in(band[1], factor)}",
                "flagged" if i in flagged else "",
                changed.get(i, ""),
            ]
        )
    return {
        "id": slug,
        "data_id": f"{slug}-data",
        "slug": history["slug"],
        "metric": history["metric"],
        "type": "line",
        "title": title + (f" · {where}" if where else ""),
        "unit": unit,
        "factor": factor,
        "subtitle": ("higher is better" if history["higher_is_better"] else "lower is better")
        + f"; band: mean ± {stats.BAND_SD} sd of the runs before, since the last change",
        "x_title": AXIS_TITLES[axis],
        "x_options": [],
        "labels": labels,
        "marks": sorted(flagged),
        "environment_marks": sorted(changed),
        "higher_is_better": history["higher_is_better"],
        "has_spread": True,
        "datasets": [
            {
                "label": history["metric"],
                "data": [v * factor for v in values],
                "low": [b[0] * factor if b else None for b in bands],
                "high": [b[1] * factor if b else None for b in bands],
            }
        ],
        "table": {
            "headers": [
                AXIS_TITLES[axis].capitalize(),
                "Run",
                title,
                "Noise band",
                "Change beyond the noise",
                "Environment change",
            ],
            "rows": rows,
        },
    }
