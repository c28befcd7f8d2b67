"""Each metric's direction follows its unit (issue 49, item 5): a time is better lower."""

import pytest

from benchmarks.importers import sysbench
from benchmarks.importers.base import TIME_UNITS, Point
from tests.benchmarks.helpers import OLTP_RW


def test_sysbench_execution_time_per_thread_is_lower_is_better():
    points = {p.metric: p for p in sysbench.parse(OLTP_RW.read_text())}
    execution = points["execution time per thread (average)"]
    assert (execution.unit, execution.higher_is_better) == ("s", False)
    assert points["transactions per second"].higher_is_better is True
    for point in points.values():
        if point.unit in TIME_UNITS:
            assert point.higher_is_better is False, point.metric


@pytest.mark.parametrize("unit", sorted(TIME_UNITS))
def test_any_time_unit_is_lower_is_better_whatever_the_importer_said(unit):
    assert Point("duration", 1.0, unit, higher_is_better=True).higher_is_better is False
    assert Point("rate", 1.0, f"operations/{unit}").higher_is_better is True
