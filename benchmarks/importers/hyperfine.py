"""hyperfine ``--export-json``: wall, user and system time per command, every timing kept
as a sample; a ``-P``/``-L`` scan becomes one series with the parameter as x."""

import json
import statistics

from benchmarks.importers.base import ImportFailed, Point, figure, scalar

VERSION = "hyperfine-json/2"


def looks_like(text: str) -> bool:
    return '"results"' in text and '"command"' in text and '"mean"' in text


def _load(text):
    try:
        data = json.loads(text)
        results = data["results"]
    except json.JSONDecodeError as error:
        raise ImportFailed(f"not valid JSON: {error.msg}", error.lineno) from error
    except (KeyError, TypeError) as error:
        raise ImportFailed("expected an object with a 'results' list", 1) from error
    if not isinstance(results, list) or not results:
        raise ImportFailed("the file has no results", 1)
    return results


def _common_start(texts):
    """The characters all texts start with (a scanned value may sit inside a word: 4M)."""
    first, last = min(texts), max(texts)
    length = 0
    while length < min(len(first), len(last)) and first[length] == last[length]:
        length += 1
    return first[:length]


def _series_labels(results):
    """Commands of one scan share a template: name it by replacing the scanned part with {name}."""
    groups: dict = {}
    for index, result in enumerate(results):
        parameters = result.get("parameters") or {}
        names = list(parameters)
        key = (
            (tuple(names), tuple((n, parameters[n]) for n in names[1:]))
            if names
            else ("command", index)
        )
        groups.setdefault(key, []).append(index)
    labels = {}
    for key, members in groups.items():
        commands = [results[i]["command"] for i in members]
        if len(members) == 1 or key[0] == "command":
            for i in members:
                labels[i] = results[i]["command"]
            continue
        prefix = _common_start(commands)
        suffix = _common_start([c[len(prefix) :][::-1] for c in commands])[::-1]
        template = f"{prefix}{{{key[0][0]}}}{suffix}"
        for i in members:
            labels[i] = template
    return labels


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    results = _load(text)
    labels = _series_labels(results)
    points = []
    for index, result in enumerate(results):
        try:
            times = [figure(t) for t in result.get("times") or []]
            scan = {name: scalar(value) for name, value in (result.get("parameters") or {}).items()}
            common = {"parameters": {**(parameters or {}), **scan}, "label": labels[index]}
            points.append(
                Point(
                    metric="wall time",
                    value=figure(result["mean"]),
                    unit="s",
                    higher_is_better=False,
                    minimum=result.get("min"),
                    maximum=result.get("max"),
                    median=result.get("median") or (statistics.median(times) if times else None),
                    stddev=result.get("stddev"),
                    samples=times,
                    **common,
                )
            )
            for name, key in (("user time", "user"), ("system time", "system")):
                if result.get(key) is not None:
                    points.append(
                        Point(name, figure(result[key]), "s", False, headline=False, **common)
                    )
            memory = result.get("memory_usage_byte") or []
            if memory:
                points.append(
                    Point(
                        "peak memory",
                        statistics.mean(memory),
                        "B",
                        False,
                        samples=memory,
                        minimum=min(memory),
                        maximum=max(memory),
                        headline=False,
                        **common,
                    )
                )
        except (KeyError, TypeError, ValueError) as error:
            raise ImportFailed(f"result {index + 1} lacks {error}", 1) from error
    return points


def metadata(text: str) -> dict:
    results = _load(text)
    failed = sum(1 for r in results for code in r.get("exit_codes") or [] if code)
    meta: dict[str, object] = {"tool": "hyperfine", "commands": [r.get("command") for r in results]}
    if failed:
        meta["failed runs"] = failed
    return meta
