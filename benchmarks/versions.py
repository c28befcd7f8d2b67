"""Each headline metric across server versions (pure: runs in, dicts and chart specs out).

Every suite whose runs name at least two server versions gets, per variant, machine,
headline metric and parameter set, one point per server version (and per commit, where
the runs give one), ordered as versions (11.4.10 after 11.4.9), never by upload. A point
pools the repetitions of every run at that version; its band is their range. Between two
points in a row the compare page's rule (``compare.judge``: Mann-Whitney on the
repetitions, the change worded by the metric's direction) says whether the later version
is better or worse beyond the noise; a worse one is a regression.

Runs on a machine other than the suite's reference hardware (``Suite.reference_hardware``,
else the hardware most of its runs name) are plotted apart, on their own charts; a machine
is the same machine when its CPU model, cores and memory match (``machines.same_machine``:
"23 GiB RAM" and "24 GiB RAM" are one machine reported by two tools)."""

import json
import statistics
from collections import Counter, OrderedDict
from itertools import pairwise

from benchmarks import charts, units
from benchmarks.compare import judge
from benchmarks.history import release, version_key
from benchmarks.machines import same_machine


def reference_hardware(suite, runs) -> str:
    """The machine a suite's figures are read against: as staff set it, else the hardware
    most of its runs name (the first named, on a tie); "" when no run names one."""
    if suite.reference_hardware:
        return suite.reference_hardware
    counts: Counter = Counter()
    for run in runs:
        if run.hardware.strip():
            named = next((known for known in counts if same_machine(known, run.hardware)), None)
            counts[named or " ".join(run.hardware.split())] += 1
    return counts.most_common(1)[0][0] if counts else ""


def elsewhere(runs, reference: str) -> list:
    """The runs measured on another machine than the reference (or on one not stated)."""
    if not reference:
        return []
    return [run for run in runs if not same_machine(run.hardware, reference)]


def by_machine(runs, reference: str) -> tuple[list, list[tuple[str, list]]]:
    """The runs on the reference machine (all of them when none is known), and for each
    other machine, in the order met, ``(its hardware, its runs)``: the suite page charts
    the reference runs and gives every other machine charts of its own (issue 49)."""
    others: OrderedDict = OrderedDict()
    for run in elsewhere(runs, reference):
        named = next((known for known in others if same_machine(known, run.hardware)), None)
        others.setdefault(named or " ".join(run.hardware.split()), []).append(run)
    apart = {run.pk for group in others.values() for run in group}
    return [run for run in runs if run.pk not in apart], list(others.items())


def reference_runs(suite, runs) -> list:
    """The runs on the suite's reference machine (all of them when none is known): what its
    main charts and its history draw."""
    return by_machine(runs, reference_hardware(suite, runs))[0]


def charted_runs(suite, runs, metric: str) -> list:
    """The runs a metric's chart draws outside the suite page (its page, SVG and PNG, and
    embeds in posts): as on the suite page's main charts, those on the reference machine;
    the others only when none there measured it."""
    on_reference = reference_runs(suite, runs)
    measured = [
        run for run in on_reference if any(m.metric == metric for m in run.measurements.all())
    ]
    return measured or runs


def _point_label(version: str, commit: str) -> str:
    return f"{version} @ {commit[:10]}" if commit else version


def _when(run):
    stamp = run.measured_at.isoformat() if run.measured_at else ""
    return (run.run_date is None, run.run_date, stamp, run.pk)


def version_lines(runs, reference: str = "") -> list[dict]:
    """[{metric, slug, parameters, variant, hardware, points, higher_is_better, unit, steps}]
    for every headline metric and parameter set that runs of one variant on one machine
    measured at two or more server versions. ``points``: [{label, runs, value, low, high,
    samples}] in version order; ``steps``: {index: judge(...)} against the point before."""
    slugs = charts.metric_slugs(charts.suite_metrics(runs))
    headline = set(charts.suite_metrics(runs, headline_only=True))
    ordered = sorted(
        (run for run in runs if run.server_version),
        key=lambda run: (version_key(release(run.server_version)), _when(run)),
    )
    lines: OrderedDict = OrderedDict()
    machines: list[str] = []
    for run in ordered:
        if reference and same_machine(run.hardware, reference):
            machine = reference
        else:
            machine = next((m for m in machines if same_machine(m, run.hardware)), run.hardware)
            if machine not in machines:
                machines.append(machine)
        group = (json.dumps(run.variant, sort_keys=True), machine)
        for m in run.measurements.all():
            if m.metric not in headline:
                continue
            key = (*group, m.metric, json.dumps(m.parameters, sort_keys=True))
            points = lines.setdefault(key, OrderedDict())
            point = (release(run.server_version), run.server_commit)
            points.setdefault(point, []).append((run, m))
    found = []
    for (variant, machine, metric, parameters), by_point in lines.items():
        if len(by_point) < 2:
            continue
        points = []
        for (version, commit), pairs in by_point.items():
            samples = [s for _, m in pairs for s in (m.samples or [m.value])]
            points.append(
                {
                    "label": _point_label(version, commit),
                    "runs": [run for run, _ in pairs],
                    "value": statistics.fmean(samples),
                    "low": min(samples) if len(samples) > 1 else None,
                    "high": max(samples) if len(samples) > 1 else None,
                    "samples": samples,
                }
            )
        first = next(iter(by_point.values()))[0][1]
        steps = {
            i: judge(
                before["value"],
                after["value"],
                before["samples"],
                after["samples"],
                first.higher_is_better,
                first.unit,
            )
            for i, (before, after) in enumerate(pairwise(points), start=1)
        }
        found.append(
            {
                "metric": metric,
                "slug": slugs[metric],
                "parameters": json.loads(parameters),
                "variant": json.loads(variant),
                "hardware": machine,
                "reference": not reference or machine == reference,
                "points": points,
                "higher_is_better": first.higher_is_better,
                "unit": first.unit,
                "steps": steps,
            }
        )
    # the reference machine's lines first, then the others, each in the order met
    found.sort(key=lambda line: not line["reference"])
    return found


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def no_history(runs, lines) -> str:
    """Why a suite with runs has no chart across server versions, said plainly (issue 49:
    the page showed nothing where the runs do not span versions); "" when it has one, or
    no runs at all. The figures are never made up to fill the section."""
    if lines or not runs:
        return ""
    stated = sorted(
        {release(run.server_version) for run in runs if run.server_version}, key=version_key
    )
    unstated = sum(1 for run in runs if not run.server_version)
    if not stated:
        return (
            "None of this suite's runs states the server version it measured (the sources "
            "do not give it), so there is no history across server versions."
        )
    versions = _listed(stated)
    if len(stated) == 1:
        said = f"Every run of this suite measured {versions}"
        if unstated:
            said = (
                f"The runs of this suite that state a server version all measured {versions} "
                f"({unstated} {'does' if unstated == 1 else 'do'} not say)"
            )
        return (
            f"{said}, so there is no history across server versions: it appears here once "
            "runs of the suite measure two versions or more."
        )
    return (
        f"This suite's runs measured {versions}, but no headline figure was measured at two "
        "of them by runs of one variant on one machine, so there is no history across "
        "server versions."
    )


def _flagged(step) -> str:
    """ "regression" or "improvement" when the change is beyond the noise, else ""."""
    if not step["verdict"].changed or step["css"].startswith("same"):
        return ""
    return "improvement" if step["css"].startswith("better") else "regression"


def changes(lines) -> list[dict]:
    """Every change beyond the noise between two versions in a row, as the history's
    changes read (for the suite page and the Atom feed): the later version's first run."""
    found = []
    for line in lines:
        for index, step in line["steps"].items():
            kind = _flagged(step)
            if not kind:
                continue
            before, after = line["points"][index - 1], line["points"][index]
            found.append(
                {
                    "run": after["runs"][0],
                    "metric": line["metric"],
                    "slug": line["slug"],
                    "parameters": line["parameters"],
                    "kind": kind,
                    "z": None,
                    "p": step["verdict"].p,
                    "before": units.format_value(before["value"], line["unit"]),
                    "after": units.format_value(after["value"], line["unit"]),
                    "change_text": step["change_text"],
                    "between": f"releases {before['label']} and {after['label']}",
                    "environment_change": ""
                    if line["reference"]
                    else f"on {line['hardware'] or 'an unstated machine'}",
                }
            )
    return found


def version_chart(line, index: int) -> dict:
    """A line's chart spec: one point per version with the range of its repetitions as the
    band, the versions where it changed beyond the noise marked; its table says so."""
    values = [point["value"] for point in line["points"]]
    factor, unit = units.scale(values, line["unit"])
    slug = f"versions-{line['slug']}-{index}"
    title = f"{line['metric']} ({unit})" if unit else line["metric"]
    where = ", ".join(f"{k}={v}" for k, v in {**line["variant"], **line["parameters"]}.items())
    machine = "" if line["reference"] else f" · on {line['hardware'] or 'an unstated machine'}"
    rows, marks = [], []
    for i, point in enumerate(line["points"]):
        text = units.format_in(point["value"], factor)
        if point["low"] is not None:
            low, high = (
                units.format_in(point["low"], factor),
                units.format_in(point["high"], factor),
            )
            text = charts.Cell(text, f"{low}–{high}, n={len(point['samples'])}")
        step = line["steps"].get(i)
        verdict = "–"
        if step:
            kind = _flagged(step)
            p = f", p = {step['verdict'].p:.3f}" if step["verdict"].p is not None else ""
            if kind:
                marks.append(i)
                verdict = f"{kind}: {step['change_text']}{p}"
            else:
                verdict = f"{step['verdict'].word}: {step['change_text']}{p}"
        rows.append([point["label"], ", ".join(run.label for run in point["runs"]), text, verdict])
    return {
        "id": slug,
        "data_id": f"{slug}-data",
        "slug": line["slug"],
        "metric": line["metric"],
        "type": "line",
        "title": title + (f" · {where}" if where else "") + machine,
        "unit": unit,
        "factor": factor,
        "subtitle": ("higher is better" if line["higher_is_better"] else "lower is better")
        + "; band: the range of the repetitions at each version",
        "x_title": "server version",
        "x_options": [],
        "labels": [point["label"] for point in line["points"]],
        "marks": marks,
        "environment_marks": [],
        "higher_is_better": line["higher_is_better"],
        "band_note": "the range of the repetitions at each version (min–max)",
        "has_spread": any(point["low"] is not None for point in line["points"]),
        "datasets": [
            {
                "label": line["metric"],
                "data": [v * factor for v in values],
                "low": [
                    p["low"] * factor if p["low"] is not None else None for p in line["points"]
                ],
                "high": [
                    p["high"] * factor if p["high"] is not None else None for p in line["points"]
                ],
            }
        ],
        "table": {
            "headers": ["Server version", "Runs", title, "Against the version before"],
            "rows": rows,
        },
    }
