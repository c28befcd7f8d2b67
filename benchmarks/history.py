"""Runs over time and the changes beyond the noise (pure: runs in, dicts out).

A history is the dated runs of one variant of a suite in date order (run date, then the
run's order); for each headline metric and parameter set it lines up one value per run. The
lookback z-score (``stats.lookback_z``) flags a run whose value leaves the spread of the
runs before it: a regression when it moved the wrong way for the metric, otherwise an
improvement."""

import json
from collections import OrderedDict

from benchmarks import charts, stats, units


def _ordered(runs):
    return sorted(runs, key=lambda run: (run.run_date is None, run.run_date, run.order, run.pk))


def histories(runs, min_runs: int = stats.MIN_HISTORY + 1):
    """[{metric, slug, parameters, variant, runs, measurements, values, steps}] for every
    headline metric and parameter set measured in at least ``min_runs`` runs of a variant."""
    slugs = charts.metric_slugs(charts.suite_metrics(runs))
    headline = set(charts.suite_metrics(runs, headline_only=True))
    groups: OrderedDict = OrderedDict()
    for run in _ordered(runs):
        if run.run_date is not None:  # undated runs (drivers side by side) are not a history
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
                    "steps": stats.lookback_z(values),
                }
            )
    return found


def changes(runs):
    """Every flagged change, newest first: {run, metric, slug, parameters, kind, z, before, after, percent}."""
    found = []
    for history in histories(runs):
        for step in history["steps"]:
            run = history["runs"][step.index]
            value = history["values"][step.index]
            better = (step.z > 0) == history["higher_is_better"]
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
                }
            )
    position = {run.pk: index for index, run in enumerate(_ordered(runs))}
    found.sort(key=lambda change: position[change["run"].pk], reverse=True)
    return found


def history_chart(history, index: int = 0) -> dict:
    """A metric's history as a chart spec: one point per run, the band the mean ± 2 standard
    deviations of the runs before it, the flagged runs marked."""
    values = history["values"]
    factor, unit = units.scale(values, history["unit"])
    bands = stats.noise_bands(values, history["steps"])
    slug = f"history-{history['slug']}-{index}"
    title = f"{history['metric']} ({unit})" if unit else history["metric"]
    where = ", ".join(
        f"{k}={v}" for k, v in {**history["variant"], **history["parameters"]}.items()
    )
    labels = [run.label for run in history["runs"]]
    flagged = {step.index for step in history["steps"]}
    rows = []
    for i, (label, run, m) in enumerate(
        zip(labels, history["runs"], history["measurements"], strict=True)
    ):
        band = bands[i]
        rows.append(
            [
                label,
                f"{run.run_date:%Y-%m-%d}" if run.run_date else "–",
                charts.cell(m, factor),
                "–"
                if band is None
                else f"{units.format_in(band[0], factor)}–{units.format_in(band[1], factor)}",
                "flagged" if i in flagged else "",
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
        + "; band: mean ± 2 sd of the runs before, since the last change",
        "x_title": "run",
        "x_options": [],
        "labels": labels,
        "marks": sorted(flagged),
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
            "headers": ["Run", "Date", title, "Noise band", "Change beyond the noise"],
            "rows": rows,
        },
    }
