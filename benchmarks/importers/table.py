"""CSV/TSV wide tables: the first column is the parameter (e.g. threads) or a category,
every other column a variant: "threads, variant A, variant B"."""

import csv
import io

from benchmarks.importers.base import ImportFailed, Point, figure
from core.numbers import is_ascii_integer

VERSION = "wide-table/1"


def looks_like(text: str) -> bool:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return ("," in first or "\t" in first) and not first.lstrip().startswith(("[", "{"))


def parse(text: str, parameters: dict | None = None) -> list[Point]:
    metric = (parameters or {}).get("metric", "value")
    unit = (parameters or {}).get("unit", "")
    higher = str((parameters or {}).get("higher_is_better", "true")).lower() != "false"
    sample = text[:2048]
    dialect = "excel-tab" if sample.count("\t") > sample.count(",") else "excel"
    rows = list(csv.reader(io.StringIO(text.strip()), dialect=dialect))
    if len(rows) < 2 or len(rows[0]) < 2:
        raise ImportFailed("expected a header row and at least one data row with two columns", 1)
    header = [cell.strip() for cell in rows[0]]
    parameter = header[0] or "x"
    points = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise ImportFailed(f"expected {len(header)} columns, found {len(row)}", line)
        key = row[0].strip()
        key_value = int(key) if is_ascii_integer(key) else key
        for column, cell in zip(header[1:], row[1:], strict=True):
            if not cell.strip():
                continue
            try:
                value = figure(cell.strip())
            except ValueError as error:
                raise ImportFailed(
                    f"column {column!r}: expected a number, found {cell.strip()[:30]!r}", line
                ) from error
            points.append(
                Point(
                    metric,
                    value,
                    unit,
                    higher,
                    {**(parameters or {}), parameter: key_value},
                    label=column,
                )
            )
    for point in points:
        for meta in ("metric", "unit", "higher_is_better"):
            point.parameters.pop(meta, None)
    return points
