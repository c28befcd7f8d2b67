"""Chart and table specifications (pure: runs and measurements in, dicts out). One spec
feeds the canvas, the data table beside it, the embed and the server-rendered image, so
they always agree."""

import json
from collections import Counter, OrderedDict
from typing import Any

from django.utils.text import slugify

from benchmarks import units
from core.numbers import is_ascii_integer

PREFERRED_X = ("threads", "clients", "connections")


def metric_slugs(metrics) -> dict:
    """metric -> slug, unique within the suite (a second metric with the same slug gets -2)."""
    slugs: dict[str, str] = {}
    used: Counter[str] = Counter()
    for metric in metrics:
        base = slugify(metric.replace("%", " percent")) or "metric"
        used[base] += 1
        slugs[metric] = base if used[base] == 1 else f"{base}-{used[base]}"
    return slugs


def suite_metrics(runs, headline_only=False):
    """Metrics in the order they first appear, headline figures first."""
    seen: OrderedDict = OrderedDict()
    for run in runs:
        for m in run.measurements.all():
            seen.setdefault(m.metric, False)
            seen[m.metric] = seen[m.metric] or m.headline
    headline = [metric for metric, is_headline in seen.items() if is_headline]
    if headline_only:
        return headline
    return headline + [metric for metric, is_headline in seen.items() if not is_headline]


def varying_parameters(measurements) -> list:
    values: OrderedDict = OrderedDict()
    for m in measurements:
        for key, value in m.parameters.items():
            values.setdefault(key, set()).add(json.dumps(value))
    varying = [key for key, seen in values.items() if len(seen) > 1]
    return sorted(varying, key=lambda key: (key not in PREFERRED_X, varying.index(key)))


def _sort_key(value):
    return (isinstance(value, str), value if not isinstance(value, bool) else str(value))


def _describe(parameters: dict) -> str:
    return ", ".join(f"{key}={value}" for key, value in parameters.items())


def palette(runs) -> dict:
    """run id -> colour slot: its place in the suite, so a run keeps its colour on every
    page of the suite (suite, chart and compare pages, embeds and images)."""
    return {run.pk: index for index, run in enumerate(runs)}


def build_chart(
    runs,
    metric: str,
    x: str | None = None,
    slug: str = "",
    id_prefix: str = "chart",
    colours: dict | None = None,
) -> dict | None:
    colours = palette(runs) if colours is None else colours
    pairs = [(run, m) for run in runs for m in run.measurements.all() if m.metric == metric]
    if not pairs:
        return None
    first = pairs[0][1]
    options = varying_parameters([m for _, m in pairs])
    if x not in options:
        x = options[0] if options else None
    factor, unit = units.scale([m.value for _, m in pairs], first.unit)
    title = f"{metric} ({unit})" if unit else metric
    spec = {
        "id": f"{id_prefix}-{slug}" if slug else id_prefix,
        "slug": slug,
        "metric": metric,
        "unit": unit,
        "factor": factor,
        "title": title,
        "x_title": x or "",
        "x_options": options,
        "higher_is_better": first.higher_is_better,
        "subtitle": "higher is better" if first.higher_is_better else "lower is better",
    }
    spec["data_id"] = f"{spec['id']}-data"
    has_spread = any(
        m.minimum is not None and m.maximum is not None and len(m.samples) > 1 for _, m in pairs
    )

    def scaled(value):
        return None if value is None else value * factor

    if x:
        xs = sorted(
            {json.dumps(m.parameters.get(x)) for _, m in pairs},
            key=lambda v: _sort_key(json.loads(v)),
        )
        series: OrderedDict = OrderedDict()
        for run, m in pairs:
            others = {k: v for k, v in m.parameters.items() if k != x and k in options}
            key = (run.pk, json.dumps(others, sort_keys=True))
            entry = series.setdefault(key, {"run": run, "others": others, "points": {}})
            entry["points"][json.dumps(m.parameters.get(x))] = m
        labels = _series_labels(series.values())
        datasets: list[dict[str, Any]] = []
        rows: list[list[str]] = []
        coloured: set[int] = set()
        for label, entry in zip(labels, series.values(), strict=True):
            points = [entry["points"].get(v) for v in xs]
            run = entry["run"]
            # a run's first series takes the run's colour; more series of it (other
            # parameters) take their place in the chart's order
            colour = colours.get(run.pk) if run.pk not in coloured else None
            coloured.add(run.pk)
            datasets.append(
                {
                    "label": label,
                    "colour": colour if colour is not None else len(datasets),
                    "data": [scaled(p.value) if p else None for p in points],
                    "low": [
                        scaled(p.minimum) if p and len(p.samples) > 1 else None for p in points
                    ],
                    "high": [
                        scaled(p.maximum) if p and len(p.samples) > 1 else None for p in points
                    ],
                }
            )
        for value in xs:
            row = [str(json.loads(value))]
            for entry in series.values():
                row.append(cell(entry["points"].get(value), factor))
            rows.append(row)
        spec.update(
            type="line",
            labels=[str(json.loads(v)) for v in xs],
            datasets=datasets,
            table={"headers": [x, *labels], "rows": rows},
        )
    else:
        labels = _unique([run.label for run, _ in pairs])
        spec.update(
            type="bar",
            labels=labels,
            datasets=[
                {
                    "label": title,
                    "data": [scaled(m.value) for _, m in pairs],
                    "low": [scaled(m.minimum) if len(m.samples) > 1 else None for _, m in pairs],
                    "high": [scaled(m.maximum) if len(m.samples) > 1 else None for _, m in pairs],
                }
            ],
            table={
                "headers": ["Run", title],
                "rows": [
                    [label, cell(m, factor)] for label, (_, m) in zip(labels, pairs, strict=True)
                ],
            },
        )
    spec["has_spread"] = has_spread
    return spec


class Cell(str):
    """A table cell's text, e.g. "11.6 (4.57 to 21.1, n=5)", with its parts for the templates."""

    value: str
    spread: str

    def __new__(cls, value, spread=""):
        cell = super().__new__(cls, f"{value} ({spread})" if spread else value)
        cell.value, cell.spread = value, spread
        return cell


def cell(measurement, factor):
    if measurement is None:
        return "–"
    if measurement.display:
        return measurement.display
    text = units.format_in(measurement.value, factor)
    if (
        len(measurement.samples) > 1
        and measurement.minimum is not None
        and measurement.maximum is not None
    ):
        low, high = (
            units.format_in(measurement.minimum, factor),
            units.format_in(measurement.maximum, factor),
        )
        return Cell(text, f"{low}–{high}, n={len(measurement.samples)}")
    return Cell(text)


def _unique(labels):
    counts = Counter(labels)
    seen: Counter[str] = Counter()
    result = []
    for label in labels:
        seen[label] += 1
        result.append(label if counts[label] == 1 else f"{label} ({seen[label]})")
    return result


def _series_labels(entries):
    labels = []
    for entry in entries:
        label = entry["run"].label
        if entry["others"]:
            label += f" · {_describe(entry['others'])}"
        labels.append(label)
    return _unique(labels)


def suite_charts(
    runs,
    x: str | None = None,
    headline_only=True,
    *,
    every_run=None,
    id_prefix: str = "chart",
):
    """The charts of ``runs``' headline metrics. ``every_run``: all the suite's runs, when
    ``runs`` are some of them (one machine's), so metrics keep their slugs and runs their
    colours."""
    every_run = runs if every_run is None else every_run
    slugs = metric_slugs(suite_metrics(every_run, headline_only=False))
    metrics = suite_metrics(runs, headline_only=False)
    shown = suite_metrics(runs, headline_only=True) if headline_only else metrics
    colours = palette(every_run)
    charts = [
        build_chart(runs, metric, x=x, slug=slugs[metric], id_prefix=id_prefix, colours=colours)
        for metric in shown
    ]
    return [chart for chart in charts if chart]


def find_metric(runs, slug_or_number: str):
    """A chart named by its metric's slug, or (older embeds) by its number on the suite page."""
    metrics = suite_metrics(runs)
    slugs = metric_slugs(metrics)
    by_slug = {slug: metric for metric, slug in slugs.items()}
    if slug_or_number in by_slug:
        return by_slug[slug_or_number], slug_or_number
    if is_ascii_integer(slug_or_number):  # isdigit() is true for a superscript two too
        headline = suite_metrics(runs, headline_only=True)
        index = int(slug_or_number) - 1
        if 0 <= index < len(headline):
            return headline[index], slugs[headline[index]]
    return None, None


def percent_change(a, b, higher_is_better):
    """Signed by direction: positive means run B is better than run A."""
    if a in (None, 0) or b is None:
        return None
    change = (b - a) / abs(a) * 100
    return change if higher_is_better else -change


# Units in which a better figure reads "faster": times and rates.
_SPEED_UNITS = ("s", "ms", "µs", "us", "ns", "hours", "cycles", "tps", "qps")


def describe_change(a, b, higher_is_better, unit="") -> dict | None:
    """B against A as a person reads it: a factor and the plain change of the value, worded
    by the metric's direction: a fivefold latency rise reads "5.0 times slower (+400%)" (with
    a multiplication sign), a throughput halving "2.0 times slower (-50%)". None when A is
    zero or either is missing."""
    if a in (None, 0) or b is None:
        return None
    percent = (b - a) / abs(a) * 100
    shown = f"{abs(percent):.0f}" if abs(percent) >= 100 else f"{abs(percent):.1f}"
    if shown == "0.0":  # equal, or too close to show which way it went
        return {"text": "no change", "better": None, "percent": percent}
    better = (b > a) == higher_is_better
    speed = unit.endswith("/s") or unit in _SPEED_UNITS
    word = ("faster" if better else "slower") if speed else ("better" if better else "worse")
    factor = max(b / a, a / b) if a > 0 and b > 0 else None
    sign = "+" if percent > 0 else "−"
    factor_text = "" if factor is None else (f"{factor:.2f}× " if factor < 2 else f"{factor:.1f}× ")
    return {"text": f"{factor_text}{word} ({sign}{shown}%)", "better": better, "percent": percent}


def run_choice_label(run) -> str:
    """How a run is named in a picker: label, variant, parameter ranges and date, so that
    no two entries read the same."""
    parts = [run.label]
    variant = {k: v for k, v in run.variant.items() if str(v) not in run.label}
    if variant:
        parts.append(_describe(variant))
    measurements = list(run.measurements.all())
    for key in varying_parameters(measurements)[:2]:
        values = sorted(
            {m.parameters.get(key) for m in measurements if key in m.parameters}, key=_sort_key
        )
        parts.append(f"{key} {values[0]}–{values[-1]}" if len(values) > 1 else f"{key} {values[0]}")
    if not varying_parameters(measurements) and measurements and measurements[0].parameters:
        parts.append(_describe(measurements[0].parameters))
    if run.run_date:
        parts.append(run.run_date.isoformat())
    return " · ".join(parts)


def run_choices(runs):
    labels = [run_choice_label(run) for run in runs]
    counts = Counter(labels)
    return [
        (run, f"{label} · #{run.pk}" if counts[label] > 1 else label)
        for run, label in zip(runs, labels, strict=True)
    ]


def _listed(values, limit=90) -> str:
    text, shown = "", 0
    for value in values:
        candidate = f"{text}, {value}" if text else value
        if len(candidate) > limit and text:
            return f"{text} and {len(values) - shown} more"
        text, shown = candidate, shown + 1
    return text


def image_context(suite_title: str, metric: str, runs, page_url: str) -> list[str]:
    """The lines an image carries below its chart, so that it says what, on what, when and
    where from wherever it is pasted: suite and metric, runs, machine, date, the page."""
    runs = list(runs)
    machines = list(dict.fromkeys(", ".join(filter(None, [r.hardware, r.os])) for r in runs))
    machines = [m for m in machines if m] or ["not recorded"]
    dates = sorted(r.run_date for r in runs if r.run_date)
    if dates:
        measured = f"{dates[0]:%Y-%m-%d}" + (
            f" to {dates[-1]:%Y-%m-%d}" if dates[-1] != dates[0] else ""
        )
    elif any("run_date" in (r.unstated or []) for r in runs):
        measured = "not stated by the source"
    else:
        measured = "not recorded"
    return [
        f"{suite_title} · {metric}",
        f"Runs: {_listed([r.label for r in runs])}",
        f"Machine{'s' if len(machines) > 1 else ''}: {_listed(machines, 110)}",
        f"Measured: {measured} · {page_url}",
    ]
