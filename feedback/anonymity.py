"""The one anonymity rule for every published figure about feedback reports.

A bucket (a version, a distribution, a plugin...) seen on fewer than
FEEDBACK_MIN_BUCKET_SERVERS servers is never published on its own: it is added to
"other". The summary API, the dashboard, the trend API, the downloads and the monthly
snapshots all go through ``merge_small_buckets``.
"""

from collections.abc import Callable

from django.conf import settings

OTHER = "other"


def minimum_servers() -> int:
    return settings.FEEDBACK_MIN_BUCKET_SERVERS


def publishable(servers: int, minimum: int | None = None) -> bool:
    """Whether a count of servers may be shown on its own."""
    return servers >= (minimum_servers() if minimum is None else minimum)


def merge_small_buckets(
    counts: dict[str, int],
    minimum: int | None = None,
    order: Callable[[str], object] | None = None,
) -> dict[str, int]:
    """Counts with the small buckets (and unknown, empty values) merged into "other".

    Largest first, or in ``order`` (e.g. CPU buckets by size); "other" always last.
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
