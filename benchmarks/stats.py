"""Deciding "changed" against "within noise" (pure, no database).

Mann-Whitney U (two-sided) compares two sets of repetitions or samples without assuming
a distribution: exact for small samples without ties, the normal approximation with
tie and continuity corrections otherwise. ``lookback_z`` flags a run whose value lies
far outside the spread of the runs before it (Conbench's lookback z-score)."""

import math
import statistics
from dataclasses import dataclass
from functools import cache

ALPHA = 0.05
EXACT_LIMIT = 20  # both samples at most this size and no ties: exact distribution (cheap to count)


@dataclass(frozen=True)
class TestResult:
    u: float
    p: float
    method: str


def _ranks(values):
    """Average ranks (1-based) of values, and the tie groups' sizes."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    ties = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


@cache
def _u_counts(n1: int, n2: int) -> tuple:
    """How many arrangements give each U from 0 to n1*n2 (the exact null distribution)."""
    if n1 == 0 or n2 == 0:
        return (1,)
    # f(n1, n2, u) = f(n1 - 1, n2, u - n2) + f(n1, n2 - 1, u)
    with_last_first = _u_counts(n1 - 1, n2)
    with_last_second = _u_counts(n1, n2 - 1)
    counts = [0] * (n1 * n2 + 1)
    for u, count in enumerate(with_last_second):
        counts[u] += count
    for u, count in enumerate(with_last_first):
        counts[u + n2] += count
    return tuple(counts)


def mann_whitney(a, b, method: str = "auto") -> TestResult:
    """Two-sided Mann-Whitney U test of a against b; U is a's statistic. ``method``:
    "auto" (exact when possible), "exact" or "normal"."""
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        raise ValueError("both samples need at least one value")
    ranks, ties = _ranks([*a, *b])
    u1 = sum(ranks[:n1]) - n1 * (n1 + 1) / 2
    exact_possible = not ties and max(n1, n2) <= EXACT_LIMIT
    if method == "exact" or (method == "auto" and exact_possible):
        counts = _u_counts(n1, n2)
        total = math.comb(n1 + n2, n1)
        smaller = min(u1, n1 * n2 - u1)
        tail = sum(counts[: int(smaller) + 1]) / total
        return TestResult(u1, min(1.0, 2 * tail), "exact")
    n = n1 + n2
    mean = n1 * n2 / 2
    tie_term = sum(t**3 - t for t in ties) / (n * (n - 1))
    variance = n1 * n2 / 12 * ((n + 1) - tie_term)
    if variance == 0:
        return TestResult(u1, 1.0, "normal approximation")
    z = (abs(u1 - mean) - 0.5) / math.sqrt(variance)
    p = math.erfc(max(z, 0) / math.sqrt(2))
    return TestResult(u1, min(1.0, p), "normal approximation")


def smallest_possible_p(n1: int, n2: int) -> float:
    """The strongest evidence the exact test can give with these sample sizes."""
    return min(1.0, 2 / math.comb(n1 + n2, n1))


@dataclass(frozen=True)
class Verdict:
    word: str  # "changed", "within noise", "too few repetitions", "no repetitions"
    p: float | None = None
    method: str = ""

    @property
    def changed(self):
        return self.word == "changed"


def compare_samples(a, b, alpha: float = ALPHA) -> Verdict:
    a, b = [float(x) for x in a or []], [float(x) for x in b or []]
    if len(a) < 2 or len(b) < 2:
        return Verdict("no repetitions")
    if smallest_possible_p(len(a), len(b)) > alpha:
        return Verdict("too few repetitions", mann_whitney(a, b).p)
    result = mann_whitney(a, b)
    return Verdict("changed" if result.p < alpha else "within noise", result.p, result.method)


LOOKBACK = 10
MIN_HISTORY = 3
Z_THRESHOLD = 5.0
BAND_SD = 2  # the noise band drawn on a history: the baseline's mean ± this many sd


@dataclass(frozen=True)
class Step:
    index: int
    z: float
    baseline: float
    spread: float


@dataclass(frozen=True)
class Judged:
    """How one value of a history was judged: ``count`` values before it (since the last
    flagged change, at most the window) and, when there were enough, their mean, spread
    and the value's z-score. ``mean`` is None when the value was not judged."""

    index: int
    count: int
    since_change: bool
    mean: float | None = None
    spread: float | None = None
    z: float | None = None
    flagged: bool = False


def lookback(
    values, window: int = LOOKBACK, threshold: float = Z_THRESHOLD, min_history: int = MIN_HISTORY
) -> list[Judged]:
    """The one rule of the history (Conbench's lookback z-score): each value against the
    mean and standard deviation of up to ``window`` values before it, once there are at
    least ``min_history`` of them; a |z| above ``threshold`` is a change beyond the noise.
    After a flagged change the baseline starts again from the new level, so one step is
    flagged once. The detector and the band drawn both read this."""
    judged = []
    start = 0
    for index, value in enumerate(values):
        history = values[max(start, index - window) : index]
        if len(history) < min_history:
            judged.append(Judged(index, len(history), start > 0))
            continue
        baseline = statistics.fmean(history)
        spread = statistics.stdev(history)
        if spread == 0:
            spread = abs(baseline) * 1e-3 or 1e-12
        z = (value - baseline) / spread
        flagged = abs(z) > threshold
        judged.append(Judged(index, len(history), start > 0, baseline, spread, z, flagged))
        if flagged:
            start = index
    return judged


def lookback_z(values, **options) -> list[Step]:
    """The flagged changes of ``lookback``."""
    return [
        Step(j.index, j.z, j.mean, j.spread)
        for j in lookback(values, **options)
        if j.flagged and j.z is not None and j.mean is not None and j.spread is not None
    ]


def noise_bands(values, **options):
    """For each value, the band its judge used: the mean ± ``BAND_SD`` standard deviations
    of the values ``lookback`` compared it with (None where it judged nothing, so a band is
    never drawn that the detector did not use); never below zero for values that never are."""
    floor = 0.0 if all(v >= 0 for v in values) else None
    bands: list[tuple[float, float] | None] = []
    for j in lookback(values, **options):
        if j.mean is None or j.spread is None:
            bands.append(None)
            continue
        low = j.mean - BAND_SD * j.spread
        bands.append((low if floor is None else max(low, floor), j.mean + BAND_SD * j.spread))
    return bands
