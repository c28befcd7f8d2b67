from dataclasses import dataclass, field
from typing import NamedTuple

from core.numbers import stray_character


class ImportFailed(ValueError):
    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


# Units of time: a duration (latency, run time, execution time) is better the lower it
# is, whatever the importer says about the metric.
TIME_UNITS = {"ns", "µs", "us", "ms", "s"}


@dataclass
class Point:
    metric: str
    value: float
    unit: str = ""
    higher_is_better: bool = True
    parameters: dict = field(default_factory=dict)
    minimum: float | None = None
    median: float | None = None
    maximum: float | None = None
    stddev: float | None = None
    samples: list = field(default_factory=list)
    label: str = ""  # a variant inside one file (CSV columns, JMH benchmarks, hyperfine commands)
    headline: bool = (
        True  # charted on the suite page; the other figures are listed and charted on demand
    )

    def __post_init__(self):
        if self.unit in TIME_UNITS:
            self.higher_is_better = False


class Parsed(NamedTuple):
    importer: str
    version: str
    points: list[Point]
    metadata: dict  # what the tool says about itself and the run: version, options, JDK...


def figure(value) -> float:
    """A figure as a float: a JSON number, or text in the digits 0-9 (``float`` also reads
    full-width and Arabic-Indic digits; such text is a ValueError here, as any text that is not a number)."""
    if isinstance(value, str) and stray_character(value) is not None:
        raise ValueError(f"{value[:40]!r} is not written with the digits 0-9")
    return float(value)


def number(text, line):
    try:
        return figure(str(text).strip().rstrip("s").replace("ms", ""))
    except ValueError as error:
        raise ImportFailed(f"expected a number, found {str(text).strip()[:40]!r}", line) from error


def scalar(value):
    """A parameter as the tool wrote it, as a number when it is one (so "64" sorts after "8")."""
    if isinstance(value, str):
        text = value.strip()
        if stray_character(text) is not None:  # full-width "64" stays text: the digits 0-9 only
            return value
        try:
            return int(text)
        except ValueError:
            pass
        try:
            as_float = float(text)
        except ValueError:
            return value
        return as_float if as_float == as_float and abs(as_float) != float("inf") else value
    return value
