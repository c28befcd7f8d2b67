"""Exposure in the field: the share of reporting servers that run a release affected by a
high or critical security advisory, per month, overall and per series.

Read from the monthly rollups of the ``version`` dimension (each server counted once, with
the version of its latest full report), with the security app saying which versions are
affected (``security.queries.versions_affected``: the advisories' ranges). Every figure
follows ``feedback.anonymity``: a count of affected servers under the minimum is withheld,
and with it the share (never 0); a series with fewer servers than the minimum in every
month is not named on its own but counted in "other".
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from feedback.anonymity import OTHER, publishable, published
from feedback.dimensions import version_key
from feedback.trends.periods import is_complete
from security.models import SERIOUS
from security.queries import versions_affected

ALL = "all"


@dataclass
class Cell:
    servers: int  # servers whose version is known, on this series (or all)
    exposed: int  # of them, on an affected release

    @property
    def published_servers(self):
        return published(self.servers)

    @property
    def published_exposed(self):
        return published(self.exposed)

    @property
    def share(self):
        """The exposed share in percent, or None when the exposed count is withheld (or
        there are no servers at all)."""
        if not self.servers or not publishable(self.exposed):
            return None
        return round(100 * self.exposed / self.servers, 1)


def _series(version: str) -> str:
    return version.rpartition(".")[0]


def field_exposure(starts: list[date], versions: dict[date, dict[str, int]], today: date) -> dict:
    """``versions``: servers per version per month (the monthly rollups). Returns the
    months and, per group (``"all"``, each series with enough servers on its own in some
    month, then ``"other"``), one figure per month: servers, exposed servers and the
    share, each ``None`` where the anonymity rule withholds it."""
    seen = {version for counts in versions.values() for version in counts}
    affected = versions_affected(seen, SERIOUS)
    per_series: dict[str, list[Cell]] = defaultdict(lambda: [Cell(0, 0) for _ in starts])
    overall = [Cell(0, 0) for _ in starts]
    for index, start in enumerate(starts):
        for version, servers in versions.get(start, {}).items():
            exposed = servers if version in affected else 0
            for cell in (overall[index], per_series[_series(version)][index]):
                cell.servers += servers
                cell.exposed += exposed
    named = {
        s: cells for s, cells in per_series.items() if any(publishable(c.servers) for c in cells)
    }
    groups = {ALL: overall}
    groups.update(dict(sorted(named.items(), key=lambda item: version_key(item[0]), reverse=True)))
    others = [s for s in per_series if s not in named]
    if others:
        groups[OTHER] = [
            Cell(
                sum(per_series[s][i].servers for s in others),
                sum(per_series[s][i].exposed for s in others),
            )
            for i in range(len(starts))
        ]
    return {
        "months": [start.isoformat() for start in starts],
        "complete": [is_complete("month", start, today) for start in starts],
        "groups": {
            name: [
                {
                    "servers": cell.published_servers,
                    "exposed": cell.published_exposed,
                    "share": cell.share,
                }
                for cell in cells
            ]
            for name, cells in groups.items()
        },
    }
