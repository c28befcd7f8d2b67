import math

import pytest

from benchmarks.stats import (
    compare_samples,
    lookback_z,
    mann_whitney,
    noise_bands,
    smallest_possible_p,
)
from benchmarks.units import format_value, scale, significant


def test_mann_whitney_exact_matches_the_published_example():
    # The example of scipy.stats.mannwhitneyu's documentation (Conover's ages):
    # exact: U=17, p=0.1111; asymptotic: p=0.11134688653314041.
    males = [19, 22, 16, 29, 24]
    females = [20, 11, 17, 12]
    result = mann_whitney(males, females)
    assert (result.u, result.method) == (17, "exact")
    assert result.p == pytest.approx(0.1111111111111111)
    asymptotic = mann_whitney(males, females, method="normal")
    assert asymptotic.p == pytest.approx(0.11134688653314041)


def test_mann_whitney_with_ties_uses_the_corrected_normal_approximation():
    males = [19, 22, 16, 29, 24, 16]  # a tie forces the normal approximation
    females = [20, 11, 17, 12]
    result = mann_whitney(males, females)
    assert result.method == "normal approximation"
    # by hand: ranks of males 3.5+3.5+6+8+9+10 = 40, U = 40 - 21 = 19; mean 12;
    # variance 24/12 * (11 - (2**3 - 2)/(10*9)); continuity correction 0.5
    variance = 24 / 12 * (11 - 6 / 90)
    expected = math.erfc((abs(19 - 12) - 0.5) / math.sqrt(variance) / math.sqrt(2))
    assert (result.u, result.p) == (19, pytest.approx(expected))
    assert result.p == pytest.approx(0.16452, abs=1e-4)


def test_mann_whitney_complete_separation():
    assert mann_whitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p == pytest.approx(2 / 252)
    assert mann_whitney([1, 2, 3], [4, 5, 6]).p == pytest.approx(0.1)
    assert mann_whitney([1, 2, 3], [1.5, 2.5, 3.5]).p == pytest.approx(0.7)
    assert smallest_possible_p(3, 3) == pytest.approx(0.1)


def test_verdicts_say_what_the_samples_allow():
    assert compare_samples([100, 101, 99, 100.5, 99.5], [120, 121, 119, 122, 118]).word == "changed"
    assert (
        compare_samples([100, 101, 99, 100.5, 99.5], [100.2, 99.1, 101.3, 99.8, 100.4]).word
        == "within noise"
    )
    assert compare_samples([1, 2, 3], [4, 5, 6]).word == "too few repetitions"
    assert compare_samples([1], [4, 5, 6]).word == "no repetitions"


def test_lookback_z_flags_a_step_once_and_not_the_noise():
    values = [100, 102, 99, 101, 100, 98, 101, 100, 60, 61, 59, 60]
    steps = lookback_z(values)
    assert [step.index for step in steps] == [8]
    assert steps[0].z < -5
    assert lookback_z([100, 102, 99, 101, 100, 98, 101, 100, 103, 97]) == []


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (0.0110284589, "s", "11.0 ms"),
        (0.000962, "s", "962 µs"),
        (456.82506424194503, "µs", "457 µs"),
        (3397, "µs", "3.40 ms"),
        (1333.06, "tps", "1,333 tps"),
        (5088044.53, "operations/s", "5.09 M operations/s"),
        (3.3762388731228185e9, "ops/s", "3.38 G ops/s"),
        (2048, "MiB", "2.00 GiB"),
        (0.36, "ms", "360 µs"),
        (0, "ms", "0 ms"),
        (20.4, "hours", "20.4 hours"),
    ],
)
def test_units_are_scaled_and_rounded_to_significant_figures(value, unit, text):
    assert format_value(value, unit) == text


def test_one_unit_for_a_column():
    assert scale([0.5, 12.0, 250.0], "ms") == (1.0, "ms")
    assert scale([1500.0, 2500.0], "ms") == (1e-3, "s")
    assert significant(0.000123456) == "0.000123"


def test_noise_bands_restart_after_a_flagged_step():
    values = [100, 102, 98, 101, 99, 100, 50, 51, 49, 50]
    assert [step.index for step in lookback_z(values)] == [6]
    bands = noise_bands(values)
    assert bands[:3] == [None, None, None]  # fewer than 3 values before: not judged, no band
    low, high = bands[6]
    assert 95 < low < 100 < high < 105  # the band before the step: the old level only
    assert bands[7] is None and bands[8] is None  # one, then two values since the step
    low, high = bands[9]
    assert 45 < low < 50 < high < 56
    assert all(band is None or band[0] >= 0 for band in noise_bands([1, 50, 2, 60, 1]))


@pytest.mark.parametrize(
    "values",
    [
        [1000, 1010, 500, 1005, 995, 1002],
        [1601, 1414, 1409, 1605, 1703, 1526, 1642, 1617, 303, 278, 153, 187],  # the demo's
        [5, 5, 5, 5, 9, 9, 9],
    ],
)
def test_a_band_is_drawn_exactly_where_the_detector_judges_a_run(values):
    bands, steps = noise_bands(values), lookback_z(values)
    flagged = {step.index for step in steps}
    for index, band in enumerate(bands):
        start = max([s for s in flagged if s < index], default=0)
        judged = index - max(start, index - 10) >= 3
        assert (band is not None) == judged, index
        if band is not None and index not in flagged:
            mean, half = (band[0] + band[1]) / 2, (band[1] - band[0]) / 2
            assert abs(values[index] - mean) <= half / 2 * 5  # within 5 sd of the mean
