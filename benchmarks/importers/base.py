from dataclasses import dataclass, field


class ImportFailed(ValueError):
    def __init__(self, message, line=None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


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


def number(text, line):
    try:
        return float(str(text).strip().rstrip("s").replace("ms", ""))
    except ValueError as error:
        raise ImportFailed(f"expected a number, found {str(text).strip()[:40]!r}", line) from error
