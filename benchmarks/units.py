"""Figures as people read them: a unit scaled to the size of the value and rounded to
significant figures (0.0110284589 s is "11.0 ms"; 5088044.53 operations/s is "5.09 M
operations/s"). Pure functions, shared by the pages, the tables and the images."""

import math

TIME = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
TIME_STEPS = [("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)]
BYTES = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "TiB": 1024**4}
BYTE_STEPS = [("B", 1), ("KiB", 1024), ("MiB", 1024**2), ("GiB", 1024**3), ("TiB", 1024**4)]
LARGE = [("T", 1e12), ("G", 1e9), ("M", 1e6)]


def significant(value: float, digits: int = 3) -> str:
    """Rounded to ``digits`` significant figures, never in scientific notation; whole
    numbers of 100 and more keep all their integer digits, with thousands separators."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= digits - 1:
        return f"{round(value):,}"
    decimals = digits - 1 - magnitude
    return f"{value:,.{decimals}f}"


def scale(values, unit: str):
    """One (factor, unit) for a set of values, so that a chart or a column reads in one unit:
    the value shown is value * factor."""
    finite = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return 1.0, unit
    typical = max(finite)
    if unit in TIME:
        seconds = typical * TIME[unit]
        name, size = TIME_STEPS[0]
        for step_name, step_size in TIME_STEPS:
            if seconds >= step_size:
                name, size = step_name, step_size
        return TIME[unit] / size, name
    if unit in BYTES:
        count = typical * BYTES[unit]
        name, size = BYTE_STEPS[0]
        for step_name, step_size in BYTE_STEPS:
            if count >= step_size:
                name, size = step_name, step_size
        return BYTES[unit] / size, name
    for prefix, size in LARGE:
        if typical >= size:
            return 1 / size, f"{prefix} {unit}".strip() if unit else prefix
    return 1.0, unit


def format_value(value, unit: str = "", digits: int = 3) -> str:
    if value is None:
        return "–"
    factor, shown = scale([value], unit)
    number = significant(value * factor, digits)
    return f"{number} {shown}".strip()


def format_in(value, factor: float, digits: int = 3) -> str:
    """A value in a unit already chosen for its column or chart."""
    return "–" if value is None else significant(value * factor, digits)
