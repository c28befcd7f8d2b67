"""The one rule for "is this release affected?" (pure logic).

A range of one series affects release R of that series when R is at or after
``introduced`` (``None``: from the start of the series, pre-releases included) and before
``fixed`` (``None``: no release of the series is fixed). Versions compare by number, so
10.6.9 comes before 10.6.10.
"""

from dataclasses import dataclass

VersionKey = tuple[int, int, int]


def version_key(version: str) -> VersionKey:
    major, minor, patch = (int(part) for part in version.split("."))
    return (major, minor, patch)


def series_of(version: str) -> str:
    return version.rpartition(".")[0]


@dataclass(frozen=True)
class Span:
    introduced: VersionKey | None
    fixed: VersionKey | None

    def includes(self, key: VersionKey) -> bool:
        after_start = self.introduced is None or self.introduced <= key
        before_fix = self.fixed is None or key < self.fixed
        return after_start and before_fix
