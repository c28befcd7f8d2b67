"""What a request read and what a connection wrote: the database tables their queries
named, so that a change purges from the edge only the pages that read what changed
(``core.edge``, docs/caching.md).

``note_query`` wraps every database connection's queries (installed from
``CoreConfig.ready()`` as each connection is made):

- inside ``start``/``stop`` (``core.edge`` around an anonymous GET the edge may keep) it
  notes the tables the queries read; reading the cache (Redis) notes ``EVERYTHING``,
  since a kept value (the supporters page's fragment, the usage statistics' figures) may
  hold rows of any table the page itself never queried;
- always, it notes on the connection the tables its statements wrote (``written``): a
  purge names them, so rows written in bulk beside a watched save (rollups beside their
  ``RollupState``, an admin action's ``QuerySet.update()``) are purged too.
"""

import re
from collections.abc import Callable
from contextvars import ContextVar, Token

EVERYTHING = "*"
TABLE_NAMED = re.compile(r'(?:FROM|JOIN)\s+"([^"]+)"')
TABLE_WRITTEN = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"([^"]+)"', re.IGNORECASE)

_reading: ContextVar[set[str] | None] = ContextVar("core.reads", default=None)


def start() -> Token:
    """Begin noting what this request (this context) reads; the token is for ``stop``."""
    return _reading.set(set())


def stop(token: Token) -> frozenset[str]:
    """What was read since ``start``."""
    read = _reading.get() or set()
    _reading.reset(token)
    return frozenset(read)


def so_far() -> frozenset[str] | None:
    """What the current request read up to now, or None when nothing is noting it."""
    read = _reading.get()
    return None if read is None else frozenset(read)


def note_query(execute: Callable, sql, params, many: bool, context: dict):
    """A database execute wrapper: notes the tables read (when noting) and written."""
    if isinstance(sql, str):
        read = _reading.get()
        if read is not None:
            read.update(TABLE_NAMED.findall(sql))
        if written := TABLE_WRITTEN.match(sql):
            connection = context["connection"]
            connection.edge_written = getattr(connection, "edge_written", set()) | {
                written.group(1)
            }
    return execute(sql, params, many, context)


def install(connection, **kwargs) -> None:
    """``connection_created`` receiver: wrap the connection's queries (once)."""
    if note_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(note_query)


def take_written(connection) -> set[str]:
    """The tables ``connection`` wrote since this was last asked (then forgotten)."""
    written = getattr(connection, "edge_written", set())
    connection.edge_written = set()
    return written


def note_cache_read() -> None:
    """The cache was read: the answer may hold rows of any table."""
    read = _reading.get()
    if read is not None:
        read.add(EVERYTHING)
