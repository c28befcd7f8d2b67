"""What a request read and what a change wrote, row by row where the queries say so, so
that a change purges from the edge only the pages that show what changed (``core.edge``,
docs/caching.md).

A read is noted as an entry: ``"table"`` (the page may show any row of it: a list, a
search) or ``"table.column=value"`` (it shows only rows with that value: a page looked
up by its slug or id, the files of one release, the announcement a release links to).
``note_query`` wraps every database connection's queries (installed from
``CoreConfig.ready()``); inside ``start``/``stop`` (``core.edge`` around an anonymous GET
the edge may keep) it reads each query's ``WHERE``: an equality or ``IN`` on a column of
a table, joined by ``AND`` only, makes that table's entry a row entry; anything else
(no such condition, ``OR``, ``NOT``, a subquery) a table entry. Reading the cache notes
``EVERYTHING``: a kept value (the supporters page's fragment, the usage statistics'
figures) may hold rows of any table the page itself never queried.

A table a query only joins to rows it looked up (a release's announcement, a post's
author) is noted as the rows of it the request loaded (``note_loaded``, ``post_init`` of
the watched models), or whole when it loaded none or more than ``MOST_ROWS``.

A change is noted the same way: a saved or deleted row of a watched model as one entry
per column value, before and after the save (``row_entries``); every statement a
connection runs that writes a table is noted too (``written``), and one that no save
explains (an admin action's ``QuerySet.update()``, rows written in bulk beside a watched
save) as a table entry. A page is purged when one of its entries matches one of the
change's: the same table entry, a row entry with the same column and value, or any
entry of a table the change names whole.
"""

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar, Token
from typing import Any
from urllib.parse import quote

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

EVERYTHING = "*"
TABLE_NAMED = re.compile(r'(?:FROM|JOIN)\s+"([^"]+)"')
STATEMENT_WRITING = re.compile(r'\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"([^"]+)"', re.I)
CONDITION = re.compile(r'"([^"]+)"\."([^"]+)" (?:= (%s)|IN \(((?:%s)(?:, %s)*)\))')
WHERE = re.compile(r"\sWHERE\s(.*?)(?:\sGROUP BY\s|\sORDER BY\s|\sLIMIT\s|\sOFFSET\s|$)", re.S)
BROAD = re.compile(r"\bOR\b|\bNOT\b|\bSELECT\b|\bEXISTS\b")
PRIMARY_KEY_ONLY = re.compile(r'\sWHERE\s+"([^"]+)"\."id" (?:= %s|IN \((?:%s)(?:, %s)*\))\s*$')
# A page that shows more rows than this of one lookup is noted as showing the table.
MOST_ROWS = 30

# "table?": the rows of ``table`` a query joined to rows it looked up (a release's
# announcement, a post's author); settled as the rows of it the request loaded.
JOINED = "?"

_reading: ContextVar[set[str] | None] = ContextVar("core.reads", default=None)
_loaded: ContextVar[dict[str, set[str]] | None] = ContextVar("core.reads.loaded", default=None)


def entry(table: str, column: str, value: object, **more: object) -> str:
    """A row entry: rows of ``table`` whose ``column`` is ``value`` (and each of ``more``'s
    columns its value: the conditions of one lookup, joined by AND)."""
    conditions = sorted({column: value, **more}.items())
    return f"{table}." + "&".join(f"{c}={quote(str(v), safe='')}" for c, v in conditions)


def table_of(entry_: str) -> str:
    return entry_.partition(".")[0] if "=" in entry_ else entry_.removesuffix(JOINED)


def _conditions(entry_: str) -> list[str]:
    """A row entry's conditions, each as the change entry that meets it."""
    table, _, conditions = entry_.partition(".")
    return [f"{table}.{condition}" for condition in conditions.split("&")]


def start() -> tuple[Token[set[str] | None], Token[dict[str, set[str]] | None]]:
    """Begin noting what this request (this context) reads; the token is for ``stop``."""
    return _reading.set(set()), _loaded.set({})


def stop(token: tuple[Token[set[str] | None], Token[dict[str, set[str]] | None]]) -> frozenset[str]:
    """What was read since ``start``, as entries."""
    read = _settled(_reading.get() or set(), _loaded.get() or {})
    _reading.reset(token[0])
    _loaded.reset(token[1])
    return read


def so_far() -> frozenset[str] | None:
    """What the current request read up to now, or None when nothing is noting it."""
    read = _reading.get()
    return None if read is None else _settled(read, _loaded.get() or {})


def note_loaded(sender: type[Model], instance: Model, **kwargs: object) -> None:
    """``post_init`` receiver (watched models): a row the request loaded, by its id."""
    loaded = _loaded.get()
    if loaded is not None and instance.pk is not None:
        loaded.setdefault(sender._meta.db_table, set()).add(str(instance.pk))


def _settled(read: set[str], loaded: dict[str, set[str]]) -> frozenset[str]:
    """Joined tables as the rows loaded of them (whole when none or too many were: read
    without models, or a long list); a table read whole makes its row entries redundant."""
    settled = set()
    for entry_ in read:
        if not entry_.endswith(JOINED):
            settled.add(entry_)
            continue
        table = entry_.removesuffix(JOINED)
        ids = loaded.get(table, set())
        if 0 < len(ids) <= MOST_ROWS:
            settled.update(entry(table, "id", pk) for pk in ids)
        else:
            settled.add(table)
    whole = {e for e in settled if "=" not in e}
    return frozenset(e for e in settled if "=" not in e or table_of(e) not in whole)


def query_entries(sql: str, params: Sequence[object] | Mapping[str, object] | None) -> set[str]:
    """The entries a query reads (see the module's docstring)."""
    named = TABLE_NAMED.findall(sql)
    tables = set(named)
    where = WHERE.search(sql)
    if (
        where is None
        or sql.count("SELECT") > 1  # a subquery anywhere: read as whole tables
        or BROAD.search(where.group(1))
        or not isinstance(params, list | tuple)
    ):
        return tables
    # table -> the columns it is looked up by: one value each, or (one of them) a list
    equal: dict[str, dict[str, object]] = {}
    listed: dict[str, tuple[str, list[object]]] = {}
    offset = where.start(1)
    for condition in CONDITION.finditer(where.group(1)):
        table, column = condition.group(1), condition.group(2)
        if table not in tables:
            continue
        first = sql[: offset + condition.start()].count("%s")
        count = 1 if condition.group(3) else condition.group(4).count("%s")
        values = list(params[first : first + count])
        if len(values) != count:
            continue
        if condition.group(3):
            equal.setdefault(table, {})[column] = values[0]
        elif table not in listed and count <= MOST_ROWS:
            listed[table] = (column, values)
    entries: set[str] = set()
    looked_up = bool(equal or listed)
    for table in tables:
        fixed = equal.get(table, {})
        if table in listed:
            column, values = listed[table]
            entries.update(entry(table, column, value, **fixed) for value in values)
        elif fixed:
            column, value = next(iter(fixed.items()))
            entries.add(entry(table, column, value, **fixed))
        elif looked_up and table != named[0]:  # joined to rows looked up: the rows loaded
            entries.add(table + JOINED)
        else:  # the rows the query lists (filtered by a join, or not at all)
            entries.add(table)
    return entries


def note_query(
    execute: Callable[..., Any], sql: object, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """A database execute wrapper: notes what the query reads (when noting) and writes."""
    if isinstance(sql, str):
        read = _reading.get()
        if read is not None and sql.lstrip()[:6].upper() == "SELECT":
            read.update(query_entries(sql, params))
        if written := STATEMENT_WRITING.match(sql):
            _note_write(context["connection"], written, sql, params, many)
    return execute(sql, params, many, context)


def _note_write(
    connection: BaseDatabaseWrapper, written: re.Match[str], sql: str, params: Any, many: bool
) -> None:
    """On the connection: the table, and the ids written when the statement names them
    (an UPDATE or DELETE by id; a one-row INSERT: "new")."""
    kind, table = written.group(1).split()[0].upper(), written.group(2)
    ids: frozenset[str] | None = None
    by_id = PRIMARY_KEY_ONLY.search(sql)
    if kind == "INSERT" and not many and sql.count("), (") == 0:
        ids = frozenset({"new"})
    elif kind != "INSERT" and by_id and by_id.group(1) == table and not many:
        ids = frozenset(str(value) for value in params[-sql[by_id.start() :].count("%s") :])
    writes = getattr(connection, "edge_writes", [])
    writes.append((table, ids))
    connection.edge_writes = writes  # type: ignore[attr-defined]  # ours to add


def install(connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    """``connection_created`` receiver: wrap the connection's queries (once)."""
    if note_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(note_query)


def take_written(connection: BaseDatabaseWrapper, saved: Iterable[str] = ()) -> set[str]:
    """Table entries for what ``connection`` wrote since this was last asked, less what
    ``saved`` (row entries of the rows saved meanwhile, with their ids) explains: a
    table written where no save says which rows changed is named whole."""
    writes = getattr(connection, "edge_writes", [])
    connection.edge_writes = []  # type: ignore[attr-defined]  # ours to add
    saved_ids: dict[str, set[str]] = {}
    for row in saved:
        table, _, rest = row.partition(".")
        column, _, value = rest.partition("=")
        if column == "id":
            saved_ids.setdefault(table, set()).update({value, "new"})
    return {table for table, ids in writes if ids is None or not ids <= saved_ids.get(table, set())}


def note_cache_read() -> None:
    """The cache was read: the answer may hold rows of any table."""
    read = _reading.get()
    if read is not None:
        read.add(EVERYTHING)


def row_entries(instance: Model, old: dict[str, object] | None = None) -> set[str]:
    """One entry per column value of a model ``instance`` as it is now (and as it was:
    ``old``, attribute name -> value), in its table and its parents'."""
    entries: set[str] = set()
    for model in (type(instance), *type(instance)._meta.get_parent_list()):
        table = model._meta.db_table
        for field in model._meta.local_concrete_fields:
            values = [getattr(instance, field.attname, None)]
            if old is not None:
                values.append(old.get(field.attname))
            entries.update(
                entry(table, field.column, value)
                for value in values
                if value is not None and not isinstance(value, bytes | memoryview)
            )
    return entries


def matches(read: Iterable[str], changed: Iterable[str]) -> bool:
    """Whether a page that read ``read`` shows something of the change ``changed``: the
    same row entry, a table it read whole that the change touched, or a table the change
    names whole that it read."""
    read, changed = set(read), set(changed)
    if not read or EVERYTHING in read or EVERYTHING in changed:
        return True
    read_whole = {e for e in read if "=" not in e}
    changed_whole = {e for e in changed if "=" not in e}
    if read_whole & {table_of(e) for e in changed} or changed_whole & {table_of(e) for e in read}:
        return True
    return any(all(condition in changed for condition in _conditions(e)) for e in read if "=" in e)
