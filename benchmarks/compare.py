"""Comparing two runs, or two variants over a whole parameter sweep (pure: runs in, dicts out).

Points are matched on their parameters; a metric that each run measured once under
different parameters (a 1-thread run against a 4-thread run) is still compared, and the
row says so. Where both sides have repetitions or samples, Mann-Whitney decides
"changed" or "within noise"; otherwise the page says the noise is unknown."""

import json
from collections import OrderedDict
from datetime import date
from typing import Any

from benchmarks import charts, stats, units
from benchmarks.machines import same_machine


def _by_parameters(run, metric):
    return OrderedDict(
        (json.dumps(m.parameters, sort_keys=True), m)
        for m in run.measurements.all()
        if m.metric == metric
    )


# What a run was measured on and with, in the order a reader checks it. A difference in the
# first group makes two runs unlike; the second group is usually what a comparison is about.
ENVIRONMENT = [
    ("hardware", "Hardware"),
    ("os", "OS"),
    ("client", "Tool"),
]
CONFIGURATION = [
    ("server_version", "Server version"),
    ("server_commit", "Server commit"),
    ("server_config", "Server options"),
    ("run_date", "Date measured"),
    ("source", "Source"),
]
UNSTATED = "not stated by the source"


# Where, when and on what a run was measured, as the downloads carry it (CSV columns and
# the JSON's "provenance", named as the upload API names them), in this order.
DOWNLOAD_FIELDS = [
    "run_date",
    "measured_at",
    "server_version",
    "server_commit",
    "server_config",
    "hardware",
    "os",
    "client",
    "source",
    "source_url",
]


def fact(run, field) -> str:
    """A provenance field as a person reads it: the value (dates in ISO 8601), else "not
    stated by the source" where a cited source leaves it unsaid, else "not recorded"."""
    value = getattr(run, field)
    if value not in (None, ""):
        return value.isoformat() if isinstance(value, date) else str(value)
    return UNSTATED if field in (run.unstated or []) else "not recorded"


def download_facts(run) -> dict:
    """The run page's provenance for the downloads: field name -> ``fact``."""
    return {field: fact(run, field) for field in DOWNLOAD_FIELDS}


def download_values(run) -> dict:
    """The provenance as typed CSV cells: the value, or None (an empty cell) where it is
    not recorded or not stated by the source (the ``unstated`` column tells which)."""
    return {field: getattr(run, field) or None for field in DOWNLOAD_FIELDS}


def provenance(run) -> list[dict]:
    """A run's environment and provenance for its page: label, value, link."""
    facts: list[dict[str, Any]] = []
    for field, label in [*CONFIGURATION[:1], *ENVIRONMENT, *CONFIGURATION[1:]]:
        facts.append(
            {"label": label, "value": fact(run, field), "missing": not getattr(run, field)}
        )
    if run.server_build:  # what the server printed, beside the release it names
        facts[0]["value"] += f" (the server printed {run.server_build})"
    if run.source_url:
        facts[-1]["url"] = run.source_url
    return facts


def differences(a, b) -> dict:
    """Every difference in environment and configuration between two runs, listed before
    any figure: {"environment": [...], "configuration": [...], "like_for_like": bool,
    "reasons": [...]}. Unlike: a different machine, OS or tool, or a side that does not
    say what it ran on."""
    found: dict[str, list[dict[str, str]]] = {"environment": [], "configuration": []}
    for group, fields in (("environment", ENVIRONMENT), ("configuration", CONFIGURATION)):
        for field, label in fields:
            left, right = fact(a, field), fact(b, field)
            unknown = {left, right} & {UNSTATED, "not recorded"}
            # one machine in two tools' words ("23 GiB RAM", "24 GiB RAM") is no difference
            alike = left == right or (field == "hardware" and same_machine(left, right))
            if not alike or (group == "environment" and unknown):
                found[group].append({"label": label, "a": left, "b": right})
    for key in sorted(set(a.variant) | set(b.variant)):
        left, right = a.variant.get(key, "–"), b.variant.get(key, "–")
        if left != right:
            found["configuration"].append({"label": key, "a": str(left), "b": str(right)})
    reasons = [
        f"{d['label'].lower()} differs"
        if d["a"] not in (UNSTATED, "not recorded") and d["b"] not in (UNSTATED, "not recorded")
        else f"{d['label'].lower()} is not known for both"
        for d in found["environment"]
    ]
    return {**found, "like_for_like": not reasons, "reasons": reasons}


def comparable(a, b) -> bool:
    """Same machine, OS and tool, known on both sides, and at least one point in common."""
    if not differences(a, b)["like_for_like"]:
        return False
    keys = {(m.metric, json.dumps(m.parameters, sort_keys=True)) for m in a.measurements.all()}
    return any(
        (m.metric, json.dumps(m.parameters, sort_keys=True)) in keys for m in b.measurements.all()
    )


def default_pair(runs):
    """The two runs the compare form starts with: the first comparable pair in the suite's
    order (neighbours first), else the first two runs."""
    for distance in range(1, len(runs)):
        for index in range(len(runs) - distance):
            if comparable(runs[index], runs[index + distance]):
                return runs[index], runs[index + distance]
    return (runs[0], runs[1]) if len(runs) > 1 else (None, None)


def judge(a_value, b_value, a_samples, b_samples, higher_is_better, unit="") -> dict:
    """B against A as the compare page words and colours it: the change (a percentage worded
    by the direction), the significance test's verdict on the repetitions, and whether it
    is better, worse or the same beyond the noise. The one rule for "beyond the noise"
    between two sets of repetitions (the version history uses it too)."""
    change = charts.percent_change(a_value, b_value, higher_is_better)
    described = charts.describe_change(a_value, b_value, higher_is_better, unit)
    verdict = stats.compare_samples(a_samples, b_samples)
    if verdict.word == "within noise" or change is None or abs(change) < 0.05:
        css = "same"
    else:
        css = "better" if change > 0 else "worse"
    if verdict.word in ("too few repetitions", "no repetitions"):
        css += " untested"
    return {
        "change": change,
        "change_text": described["text"] if described else "–",
        "css": css,
        "verdict": verdict,
        "word": "better" if change and change > 0 else "worse" if change and change < 0 else "same",
    }


def _row(a, b, factor, note=""):
    return {
        "parameters": ", ".join(f"{k}={v}" for k, v in a.parameters.items()) or "–",
        "note": note,
        "a": charts.cell(a, factor),
        "b": charts.cell(b, factor),
        **judge(a.value, b.value, a.samples, b.samples, a.higher_is_better, a.unit),
    }


def compare_runs(a, b, x=None, colours=None):
    """``colours``: the suite's ``charts.palette``, so A and B keep their suite colours."""
    metrics = charts.suite_metrics([a, b])
    headline = set(charts.suite_metrics([a, b], headline_only=True))
    slugs = charts.metric_slugs(metrics)
    sections = []
    for metric in metrics:
        left, right = _by_parameters(a, metric), _by_parameters(b, metric)
        pairs, note = [(left[k], right[k]) for k in left if k in right], ""
        if not pairs and len(left) == 1 and len(right) == 1:
            (only_a,), (only_b,) = left.values(), right.values()
            pairs = [(only_a, only_b)]
            note = "measured under different parameters: " + ", ".join(
                f"{k}: {only_a.parameters.get(k, '–')} against {only_b.parameters.get(k, '–')}"
                for k in sorted(set(only_a.parameters) | set(only_b.parameters))
                if only_a.parameters.get(k) != only_b.parameters.get(k)
            )
        if not pairs:
            continue
        factor, unit = units.scale([m.value for pair in pairs for m in pair], pairs[0][0].unit)
        rows = [_row(ma, mb, factor, note) for ma, mb in pairs]
        tally = {"better": 0, "worse": 0, "same": 0, "untested": 0}
        for row in rows:
            if row["verdict"].word in ("changed", "within noise"):
                tally[row["css"].split()[0]] += 1
            else:
                tally["untested"] += 1
        chart = None
        if metric in headline:
            chart = charts.build_chart(
                [a, b], metric, x=x, slug=slugs[metric], id_prefix="compare", colours=colours
            )
        sections.append(
            {
                "metric": metric,
                "unit": unit,
                "headline": metric in headline,
                "rows": rows,
                "chart": chart,
                "direction": "higher is better"
                if pairs[0][0].higher_is_better
                else "lower is better",
                "summary": _summary(tally, len(rows)),
            }
        )
    return {
        "differences": differences(a, b),
        "sections": sections,
        "headline_sections": [s for s in sections if s["headline"]],
        "other_sections": [s for s in sections if not s["headline"]],
    }


def _summary(tally, total):
    parts = []
    if tally["better"]:
        parts.append(f"better beyond the noise at {tally['better']} of {total}")
    if tally["worse"]:
        parts.append(f"worse beyond the noise at {tally['worse']} of {total}")
    if tally["same"]:
        parts.append(f"within the noise at {tally['same']} of {total}")
    if tally["untested"]:
        parts.append(f"not enough repetitions to judge at {tally['untested']} of {total}")
    return "; ".join(parts)


def run_rows(run):
    """A run's measurements for its page, each in a unit scaled to it."""
    rows = []
    for m in run.measurements.all():
        factor, unit = units.scale([m.value], m.unit)
        rows.append(
            {
                "metric": m.metric,
                "parameters": ", ".join(f"{k}={v}" for k, v in m.parameters.items()),
                "value": m.display or f"{charts.cell(m, factor)} {unit}".strip(),
                "direction": "higher is better" if m.higher_is_better else "lower is better",
            }
        )
    return rows


def _detail_text(value) -> str:
    """A tool's detail as a line of text; a long or nested one is counted, not spelled out
    (every value is in the JSON download)."""
    scalar = (str, int, float, bool)
    if isinstance(value, scalar) or value is None:
        return "–" if value in (None, "") else str(value)
    if isinstance(value, dict) and all(isinstance(v, scalar) for v in value.values()):
        text = "; ".join(f"{k}: {v}" for k, v in value.items())
    elif isinstance(value, list) and all(isinstance(v, scalar) for v in value):
        text = ", ".join(str(v) for v in value)
    else:
        text = ""
    if text and len(text) <= 500:
        return text
    return f"{len(value)} entries (every one in the suite's JSON download)"


def detail_rows(run) -> list[dict]:
    """What the tool reported about itself, per imported file, every field with its label:
    [{file, importer, facts: [(label, text)]}]."""
    return [
        {
            "file": entry.get("file", ""),
            "importer": entry.get("importer", ""),
            "facts": [
                (str(key), _detail_text(value))
                for key, value in entry.items()
                if key not in ("file", "importer")
            ],
        }
        for entry in (run.details or {}).get("files", [])
    ]
