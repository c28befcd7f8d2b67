"""The one anonymity rule for every published figure about feedback reports.

A bucket (a version, a distribution, a plugin...) seen on fewer than
FEEDBACK_MIN_BUCKET_SERVERS servers is never published on its own. Unordered values
are added to "other"; ordered ranges (CPU count, memory) are merged with their
neighbours and named after the range they then cover, so a chart of sizes stays in
order. The summary API, the dashboard, the trend API, the downloads and the monthly
snapshots all go through ``publish_counts``.
"""

from collections.abc import Callable
from typing import Any

from django.conf import settings

from feedback.dimensions import ORDERED_BUCKETS, bucket_range, value_order

OTHER = "other"


def minimum_servers() -> int:
    return settings.FEEDBACK_MIN_BUCKET_SERVERS


def publishable(servers: int, minimum: int | None = None) -> bool:
    """Whether a count of servers may be shown on its own."""
    return servers >= (minimum_servers() if minimum is None else minimum)


def published(servers: int | None, minimum: int | None = None) -> int | None:
    """A count of servers as a figure over time may show it: ``None`` ("fewer than N",
    a gap in charts, null in JSON) under the minimum, and for no servers at all, since a
    0 beside the withheld counts would tell them apart."""
    return servers if servers and publishable(servers, minimum) else None


def withheld_label(minimum: int | None = None) -> str:
    """What tables and files say instead of a count too small to publish (never 0)."""
    return f"fewer than {minimum_servers() if minimum is None else minimum}"


def publish_counts(counts: dict[str, int], dimension: str) -> dict[str, int]:
    """Servers per value of ``dimension`` as they may be published."""
    if dimension in ORDERED_BUCKETS:
        return merge_neighbours(counts, dimension)
    return merge_small_buckets(counts, order=value_order(dimension))


def merge_small_buckets(
    counts: dict[str, int],
    minimum: int | None = None,
    order: Callable[[str], Any] | None = None,
) -> dict[str, int]:
    """Counts with the small buckets (and unknown, empty values) merged into "other".

    Largest first, or in ``order`` (e.g. versions by number); "other" always last.
    """
    minimum = minimum_servers() if minimum is None else minimum
    merged: dict[str, int] = {}
    other = 0
    for value, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if value in ("", OTHER) or count < minimum:
            other += count
        else:
            merged[value] = count
    if order is not None:
        merged = dict(sorted(merged.items(), key=lambda item: order(item[0])))
    if other:
        merged[OTHER] = other
    return merged


def _neighbour_groups(counts: dict[str, int], buckets: list[str], minimum: int) -> list[list[int]]:
    """Ordered buckets grouped so each group reaches the minimum: ``[first index, last
    index, servers]``; a small bucket joins the next (the last the one before). Only the
    last group can stay under the minimum, when all servers together are too few."""
    groups: list[list[int]] = []
    current: list[int] | None = None
    for index, bucket in enumerate(buckets):
        servers = counts.get(bucket, 0)
        if not servers and current is None:
            continue
        if current is None:
            current = [index, index, servers]
        else:
            current[1], current[2] = index, current[2] + servers
        if current[2] >= minimum:
            groups.append(current)
            current = None
    if current is not None:
        if groups:
            groups[-1][1], groups[-1][2] = current[1], groups[-1][2] + current[2]
        else:
            groups.append(current)
    return groups


def ordered_ranges(
    counts: dict[str, int], dimension: str, minimum: int | None = None
) -> list[tuple[str, list[str], int]]:
    """``(name, buckets, servers)`` of each range the counts of an ordered dimension (CPU
    count, memory) are published in, in order: each bucket under the minimum merged with
    the next (the last with the one before), the range named after the buckets it holds
    servers in (``dimensions.bucket_range``). The one home of the ranges' names: the
    breakdowns, the charts, the trend API and every CSV name a month's ranges from here,
    so one range has one name everywhere (issue 49). Only the last range can stay under
    the minimum, when all servers together are too few."""
    minimum = minimum_servers() if minimum is None else minimum
    buckets = ORDERED_BUCKETS[dimension]
    ranges = []
    for first, last, servers in _neighbour_groups(counts, buckets, minimum):
        used = [i for i in range(first, last + 1) if counts.get(buckets[i], 0)]
        name = bucket_range(dimension, used[0], used[-1])
        ranges.append((name, buckets[used[0] : used[-1] + 1], servers))
    return ranges


def merge_neighbours(
    counts: dict[str, int], dimension: str, minimum: int | None = None
) -> dict[str, int]:
    """The ``ordered_ranges`` of the counts with their servers; values outside the
    dimension's buckets (unknown), and servers too few for any range, go to "other"."""
    minimum = minimum_servers() if minimum is None else minimum
    buckets = ORDERED_BUCKETS[dimension]
    merged: dict[str, int] = {}
    other = sum(n for value, n in counts.items() if value not in buckets)
    for name, _, servers in ordered_ranges(counts, dimension, minimum):
        if servers < minimum:  # all servers together are still too few to name a range
            other += servers
            continue
        merged[name] = servers
    if other:
        merged[OTHER] = other
    return merged


def publish_ranges_over_time(
    per_period: list[dict[str, int]],
    dimension: str,
    basis: dict[str, int],
    minimum: int | None = None,
) -> dict[str, list[int | None]]:
    """Servers per ordered range (CPU count, memory) in each period, with **one** set of
    ordered, non-overlapping ranges for every period: the ``ordered_ranges`` of ``basis``
    (the default period's counts), under the very names its breakdown gives them, and
    each bucket outside them (empty in the basis) on its own. Each period's counts are
    published as ``publish_with_total`` publishes cells beside their total (``None``
    under the minimum, and none the period's servers reveal); unknown values are "other"
    (last). Ranges without servers in any period are left out."""
    minimum = minimum_servers() if minimum is None else minimum
    buckets = ORDERED_BUCKETS[dimension]
    ranges = {
        members[0]: (name, members)
        for name, members, servers in ordered_ranges(basis, dimension, minimum)
        if servers >= minimum
    }
    covered = {bucket for _, members in ranges.values() for bucket in members}
    columns: dict[str, list[str]] = {}
    for bucket in buckets:
        if bucket in ranges:
            name, members = ranges[bucket]
            columns[name] = members
        elif bucket not in covered:
            columns[bucket] = [bucket]
    columns[OTHER] = sorted({value for counts in per_period for value in counts} - set(buckets))
    totals = {
        label: [sum(counts.get(value, 0) for value in members) for counts in per_period]
        for label, members in columns.items()
    }
    totals = {label: counts for label, counts in totals.items() if any(counts)}
    # Each period's column adds up to its servers, which are published ("servers over
    # time"): no withheld range may be worked out from them (complementary suppression).
    shown = [
        publish_with_total(
            cells := {label: counts[index] for label, counts in totals.items()},
            sum(cells.values()),
            minimum,
        )
        for index in range(len(per_period))
    ]
    return {label: [column[label] for column in shown] for label in totals}


def publish_with_total(
    cells: dict[str, int], total: int | None, minimum: int | None = None
) -> dict[str, int | None]:
    """The cells of a breakdown whose ``total`` is published beside them, as they may be
    published: ``None`` ("fewer than N") for each cell under the minimum, and none that
    the total and the other cells reveal. Complementary suppression: when the withheld
    cells could be worked out (one alone, or several that can only all be N - 1), the
    smallest published cell is withheld with them. Withheld cells that add up to nothing
    are all zero, which the total already tells: they are published as 0."""
    minimum = minimum_servers() if minimum is None else minimum
    shown: dict[str, int | None] = {
        value: servers if servers and publishable(servers, minimum) else None
        for value, servers in cells.items()
    }
    if total is None or not publishable(total, minimum):
        return shown
    hidden = [value for value, servers in shown.items() if servers is None]
    hidden_sum = sum(cells[value] for value in hidden)
    if hidden_sum == 0:
        return {value: 0 if servers is None else servers for value, servers in shown.items()}

    def revealed() -> bool:
        if len(hidden) == 1:
            return True
        return all(cells[v] < minimum for v in hidden) and hidden_sum == len(hidden) * (minimum - 1)

    while revealed():
        candidates = [v for v, servers in shown.items() if servers is not None]
        if not candidates:
            break
        smallest = min(candidates, key=lambda v: (cells[v], v))
        shown[smallest] = None
        hidden.append(smallest)
        hidden_sum += cells[smallest]
    return shown
