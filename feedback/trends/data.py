"""What the dashboard, the trend API, the downloads and the snapshots publish, read from
the rollups only (a fixed number of queries, whatever the number of reports).

Every public figure passes through ``feedback.anonymity``: a bucket with fewer than
FEEDBACK_MIN_BUCKET_SERVERS servers is folded into "other" (or not shown on its own).
Figures default to the last complete period; the current one is shown, marked
incomplete, only at the end of the charts over time.
"""

from collections import defaultdict
from datetime import date, timedelta
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from feedback.anonymity import (
    OTHER,
    minimum_servers,
    publish_counts,
    publish_ranges_over_time,
    publish_with_total,
    publishable,
    published,
)
from feedback.dimensions import (
    DIMENSIONS,
    MANY_VALUES,
    ONE_VALUE,
    ORDERED_BUCKETS,
    PAIR_SEPARATOR,
    value_order,
    version_key,
)
from feedback.trends.exposure import field_exposure
from feedback.trends.models import Rollup
from feedback.trends.periods import (
    ADOPTION_WINDOW,
    PERIODS,
    WINDOWS,
    default_period,
    is_complete,
    last_complete_day,
    period_end,
    shown_begin,
)
from feedback.trends.versioning import cache_version
from releases.models import Release, Series

DEFAULT_SPANS = {"day": 60, "week": 26, "month": 24}
REACH_THRESHOLDS = (5, 10, 50, 100)
ADOPTION_SAMPLES = 26  # weekly points of the release adoption chart
RELEASES_SHOWN = 12
LAG_DISTRIBUTIONS = 6
PAIR_DIMENSIONS = ["distribution_series", "distribution_version"]


def merged(counts: dict[str, int], dimension: str) -> dict[str, int]:
    return publish_counts(counts, dimension)


def load_rows(period: str, span: int, today: date):
    """One query for the period starts, one for every rollup row of the last ``span``."""
    starts = list(
        Rollup.objects.filter(period=period, dimension="servers", period_start__lte=today)
        .order_by("-period_start")
        .values_list("period_start", flat=True)[:span]
    )
    if not starts:
        return [], {}
    rows = Rollup.objects.filter(
        period=period, period_start__gte=min(starts), period_start__lte=today
    ).values_list("period_start", "dimension", "value", "servers")
    table: dict[str, dict[date, dict[str, int]]] = {}
    for start, dimension, value, servers in rows:
        table.setdefault(dimension, {}).setdefault(start, {})[value] = servers
    return sorted(starts), table


def load_window(window: str) -> tuple[date | None, dict[str, dict[str, int]]]:
    """The latest rolling window's counts: (its last day, {dimension: {value: servers}})."""
    rows = list(
        Rollup.objects.filter(period=window).values_list(
            "period_start", "dimension", "value", "servers"
        )
    )
    if not rows:
        return None, {}
    end = max(row[0] for row in rows)
    counts: dict[str, dict[str, int]] = {}
    for start, dimension, value, servers in rows:
        if start == end:
            counts.setdefault(dimension, {})[value] = servers
    return end, counts


def time_series(starts, table, dimension, top=8, basis: date | None = None):
    """Per period, the merged counts; the ``top`` largest values by total, the rest "other".

    Ordered ranges (CPU count, memory) get one set of ranges for every period instead,
    those of the ``basis`` period (``publish_ranges_over_time``), so the columns stay in
    order and never overlap."""
    rows = table.get(dimension, {})
    if dimension in ORDERED_BUCKETS:
        return publish_ranges_over_time(
            [rows.get(start, {}) for start in starts], dimension, rows.get(basis, {})
        )
    per_period = {start: merged(rows.get(start, {}), dimension) for start in starts}
    totals: dict[str, int] = defaultdict(int)
    for counts in per_period.values():
        for value, count in counts.items():
            if value != OTHER:
                totals[value] += count
    keep = [v for v, _ in sorted(totals.items(), key=lambda item: -item[1])[:top]]
    order = value_order(dimension)
    if order:
        keep.sort(key=order)
    # A value without its own figure in a period (none, or too few to publish) is a gap
    # ("fewer than N" in tables and files), never 0; "other" too.
    other = [sum(c for v, c in per_period[start].items() if v not in keep) for start in starts]
    names = [*keep, OTHER] if any(other) else keep
    # Each period's column adds up to its servers, which are published: no cell may be
    # worked out from them (complementary suppression, feedback.anonymity).
    columns = []
    for index, start in enumerate(starts):
        cells = {value: per_period[start].get(value, 0) for value in keep}
        if any(other):
            cells[OTHER] = other[index]
        columns.append(publish_with_total(cells, sum(cells.values())))
    return {value: [column[value] for column in columns] for value in names}


def _shares(counts: dict[str, int], total: int) -> dict[str, tuple[int, float]]:
    return {
        value: (count, round(100 * count / total, 1) if total else 0.0)
        for value, count in counts.items()
    }


def _split_pairs(counts: dict[str, int]) -> dict[str, dict[str, int]]:
    """{"Debian | 10.11": n} -> {"Debian": {"10.11": n}}."""
    nested: dict[str, dict[str, int]] = defaultdict(dict)
    for value, count in counts.items():
        first, _, second = value.partition(PAIR_SEPARATOR)
        nested[first][second] = count
    return nested


def eol_by_distribution(pair_counts: dict[str, int], eol_series: set[str]) -> list[dict]:
    """Per distribution family: servers, servers on an end-of-life series, share."""
    rows: list[dict[str, Any]] = []
    other_total, other_eol = 0, 0
    for family, by_series in sorted(_split_pairs(pair_counts).items()):
        total = sum(by_series.values())
        on_eol = sum(n for series, n in by_series.items() if series in eol_series)
        if publishable(total):
            rows.append({"distribution": family, "servers": total, "eol": on_eol})
        else:
            other_total, other_eol = other_total + total, other_eol + on_eol
    rows.sort(key=lambda row: -row["servers"])
    if other_total:
        rows.append({"distribution": OTHER, "servers": other_total, "eol": other_eol})
    # The end-of-life total is published beside the rows: none may be worked out from it
    # (complementary suppression); withheld rows that add up to nothing are zeros.
    total = sum(row["eol"] for row in rows)
    shown = publish_with_total({row["distribution"]: row["eol"] for row in rows}, total)
    for row in rows:
        row["eol"] = shown[row["distribution"]]
        if row["eol"] is None:  # "fewer than N", never 0
            row["share"] = None
        else:
            row["share"] = round(100 * row["eol"] / row["servers"], 1)
    return rows


def first_report_day() -> date | None:
    """The first day with a counted report: no figure is given for time before it."""
    return Rollup.objects.first_report_day()


def load_adoption(today: date):
    """One query: the 7-day window counts of versions and distribution pairs, last year."""
    rows = Rollup.objects.filter(
        period=ADOPTION_WINDOW,
        dimension__in=["version", "servers", *PAIR_DIMENSIONS],
        period_start__gt=today - timedelta(days=400),
        period_start__lte=today,
    ).values_list("period_start", "dimension", "value", "servers")
    table: dict[str, dict[date, dict[str, int]]] = {}
    for day, dimension, value, servers in rows:
        table.setdefault(dimension, {}).setdefault(day, {})[value] = servers
    return table


def release_adoption(releases, adoption, end: date, first_day: date | None):
    """Servers running each release in the 7 days to each weekly sample day, from the
    first window wholly after the reports began. ``None``: not released yet, or fewer
    servers than the anonymity minimum (a gap in the chart, never 0)."""
    days = [end - timedelta(weeks=n) for n in reversed(range(ADOPTION_SAMPLES))]
    if first_day is None:
        days = []
    else:
        days = [day for day in days if day - timedelta(days=6) >= first_day]
    versions = adoption.get("version", {})
    series, released = {}, {}
    for release in releases:
        counts = [versions.get(day, {}).get(release.version, 0) for day in days]
        shown = [
            count if day >= release.release_date and publishable(count) else None
            for day, count in zip(days, counts, strict=True)
        ]
        if any(count is not None for count in shown):
            series[release.version] = shown
            released[release.version] = release.release_date.isoformat()
    active = adoption.get("servers", {})
    return {
        "labels": [day.isoformat() for day in days],
        "series": series,
        "released": released,
        "servers": [published(active.get(day, {}).get("")) for day in days],
    }


BEFORE_DATA = "before"  # released before the reports began: no speed to tell


def days_to_reach(releases, adoption, thresholds=REACH_THRESHOLDS, first_day=None):
    """Days from each release until N servers ran it within a 7-day window; BEFORE_DATA
    for a release published before the first report (its early days were not seen)."""
    versions = adoption.get("version", {})
    result = []
    for release in releases:
        if first_day is None or release.release_date < first_day:
            result.append(
                {
                    "version": release.version,
                    "date": release.release_date.isoformat(),
                    "reached": dict.fromkeys(thresholds, BEFORE_DATA),
                }
            )
            continue
        seen = sorted((day, counts.get(release.version, 0)) for day, counts in versions.items())
        reached = {}
        for threshold in thresholds:
            first = next(
                (
                    day
                    for day, n in seen
                    if n >= threshold and publishable(n) and day >= release.release_date
                ),
                None,
            )
            reached[threshold] = (first - release.release_date).days if first else None
        result.append(
            {
                "version": release.version,
                "date": release.release_date.isoformat(),
                "reached": reached,
            }
        )
    return result


def upgrade_lag(releases, adoption, families: list[str], first_day=None):
    """Days from each release until half of its series' servers on a distribution ran it
    (or a later release of the series), counted in 7-day windows. None: not yet; "few":
    fewer servers of that series on that distribution than the anonymity minimum;
    BEFORE_DATA: released before the reports began."""
    series_rows = adoption.get("distribution_series", {})
    version_rows = adoption.get("distribution_version", {})
    days = sorted(series_rows)
    result = []
    for release in releases:
        if first_day is None or release.release_date < first_day:
            lags: dict[str, object] = dict.fromkeys(families, BEFORE_DATA)
            result.append({"version": release.version, "lags": lags})
            continue
        series = release.series.version
        key = version_key(release.version)
        lags = {}
        for family in families:
            lag, enough = None, False
            for day in days:
                if day < release.release_date:
                    continue
                total = series_rows[day].get(f"{family}{PAIR_SEPARATOR}{series}", 0)
                if not publishable(total):
                    continue
                enough = True
                upgraded = sum(
                    n
                    for value, n in version_rows.get(day, {}).items()
                    if value.startswith(f"{family}{PAIR_SEPARATOR}{series}.")
                    and version_key(value.partition(PAIR_SEPARATOR)[2]) >= key
                )
                if 2 * upgraded >= total:
                    lag = (day - release.release_date).days
                    break
            lags[family] = lag if enough else "few"
        result.append({"version": release.version, "lags": lags})
    return result


def dashboard(period: str = "month", window: str | None = None, today: date | None = None):
    """Everything the dashboard shows; cached until the rollups change."""
    if period not in PERIODS:
        period = "month"
    if window not in WINDOWS:
        window = None
    today = today or timezone.localdate()
    key = f"trends:dashboard:{cache_version()}:{period}:{window}:{minimum_servers()}:{today}"
    data = cache.get(key)
    if data is None:
        data = _dashboard(period, window, today)
        cache.set(key, data, timeout=3600)
    return data


def _dashboard(period: str, window: str | None, today: date) -> dict:
    starts, table = load_rows(period, DEFAULT_SPANS[period], today)
    first_day = first_report_day()
    labels = [start.isoformat() for start in starts]
    incomplete = bool(starts) and not is_complete(period, starts[-1], today)
    display_labels = list(labels)
    if starts and first_day and starts[0] < first_day:
        display_labels[0] = f"{labels[0]} (reports begin {first_day.isoformat()})"
    if incomplete:
        display_labels[-1] = f"{display_labels[-1]} (incomplete)"
    # Under the minimum, a total is withheld like any count ("fewer than N"), never shown.
    active = [published(table.get("servers", {}).get(start, {}).get("")) for start in starts]

    if window:
        window_end, counts = load_window(window)
        selected: dict[str, Any] = {
            "kind": "window",
            "name": window,
            "from": shown_begin(window, window_end, first_day).isoformat() if window_end else None,
            "to": window_end.isoformat() if window_end else None,
            "complete": True,
        }
    else:
        chosen = default_period(period, starts, today, first_day)
        counts = {d: values.get(chosen, {}) for d, values in table.items()} if chosen else {}
        selected = {
            "kind": "period",
            "name": period,
            "from": chosen.isoformat() if chosen else None,
            "to": (period_end(period, chosen) - timedelta(days=1)).isoformat() if chosen else None,
            "complete": chosen is not None and is_complete(period, chosen, today),
            # A period that began before the first report holds only part of its data.
            "whole": chosen is not None
            and is_complete(period, chosen, today)
            and (first_day is None or chosen >= first_day),
        }
    total = counts.get("servers", {}).get("", 0)
    selected["servers"] = total
    selected["reports_begin"] = first_day.isoformat() if first_day else None

    eol_series = {s.version for s in Series.objects.all() if s.is_eol(today)}
    series_now = counts.get("series", {})
    on_eol = sum(count for value, count in series_now.items() if value in eol_series)
    by_distribution = eol_by_distribution(counts.get("distribution_series", {}), eol_series)
    # The most recently published releases (the model's default order), not the highest
    # version numbers: those are previews and rolling releases few servers run.
    releases = list(Release.objects.published().select_related("series")[:RELEASES_SHOWN])
    adoption = load_adoption(today)
    families = [row["distribution"] for row in by_distribution if row["distribution"] != OTHER]
    series_over_time = time_series(starts, table, "series")
    # the series pages say who runs each series (feedback.trends.series_usage)
    series_pages = sorted(
        Series.objects.filter(version__in=list(series_over_time)).values_list("version", flat=True),
        key=version_key,
    )
    months, month_table = (
        (starts, table) if period == "month" else load_rows("month", DEFAULT_SPANS["month"], today)
    )
    return {
        "period": period,
        "window": window,
        "windows": list(WINDOWS),
        "selected": selected,
        "labels": labels,
        "display_labels": display_labels,
        "incomplete": incomplete,
        "active": active,
        "latest_total": total,
        "series_over_time": series_over_time,
        "series_pages": series_pages,
        "breakdowns": {d: merged(counts.get(d, {}), d) for d in ONE_VALUE},
        "shares": {d: _shares(merged(counts.get(d, {}), d), total) for d in MANY_VALUES},
        "eol": {
            # Too few to publish: None ("fewer than N"), never 0.
            "servers": on_eol if publishable(on_eol) else None,
            "share": round(100 * on_eol / total, 1) if total and publishable(on_eol) else None,
            # the end-of-life series the servers run (those with enough servers to name)
            "series": sorted(
                (v for v, n in series_now.items() if v in eol_series and publishable(n)),
                key=version_key,
            ),
            "by_distribution": by_distribution,
        },
        "reports_begin": first_day.isoformat() if first_day else None,
        "adoption": release_adoption(releases, adoption, last_complete_day(today), first_day),
        "days_to_reach": days_to_reach(releases, adoption, first_day=first_day),
        "reach_thresholds": list(REACH_THRESHOLDS),
        "upgrade_lag": upgrade_lag(
            releases, adoption, families[:LAG_DISTRIBUTIONS], first_day=first_day
        ),
        "lag_distributions": families[:LAG_DISTRIBUTIONS],
        "minimum": minimum_servers(),
        # Servers on a release affected by a high or critical advisory, per month.
        "exposure": field_exposure(months, month_table.get("version", {}), today),
    }


def trend(
    dimension: str, period: str = "month", window: str | None = None, today: date | None = None
) -> dict:
    """GET /api/feedback/trends/<dimension>: servers per value per period (or in a window)."""
    today = today or timezone.localdate()
    key = (
        f"trends:trend:{cache_version()}:{dimension}:{period}:{window}:{minimum_servers()}:{today}"
    )
    data = cache.get(key)
    if data is not None:
        return data
    data = {
        "dimension": dimension,
        "label": DIMENSIONS.get(dimension, "Active servers"),
        "period": period,
        "window": window,
        "min_bucket_servers": minimum_servers(),
    }
    if window:
        end, counts = load_window(window)
        data["from"] = shown_begin(window, end, first_report_day()).isoformat() if end else None
        data["to"] = end.isoformat() if end else None
        total = counts.get("servers", {}).get("", 0)
        data["servers"] = total
        if dimension == "servers":
            data["values"] = {"servers": published(total)}
        else:
            data["values"] = merged(counts.get(dimension, {}), dimension)
            data["share_percent"] = {
                value: round(100 * n / total, 1) if total else 0.0
                for value, n in data["values"].items()
            }
    else:
        starts, table = load_rows(period, DEFAULT_SPANS[period], today)
        data["periods"] = [s.isoformat() for s in starts]
        data["complete"] = [is_complete(period, s, today) for s in starts]
        basis = default_period(period, starts, today, first_report_day())
        if dimension == "servers":
            data["values"] = {
                "servers": [published(table.get("servers", {}).get(s, {}).get("")) for s in starts]
            }
        else:
            data["values"] = time_series(starts, table, dimension, top=50, basis=basis)
    cache.set(key, data, timeout=3600)
    return data
