"""What the edge (nginx's cache, deploy/nginx/) may keep, and telling it when that changed.

The site builds every page; nginx keeps the answers the site marks shareable and serves
them without asking again (docs/caching.md). This module decides and says so:

- ``EdgeCacheMiddleware`` marks an anonymous visitor's ``GET`` of a page shareable when
  nothing of the visitor's is in it (``Cache-Control: public, max-age=0, s-maxage=...``,
  ``ETag``, ``Last-Modified``; a conditional request gets ``304``), and marks a signed-in
  visitor's pages private. An anonymous ``GET`` carrying a query parameter its page does
  not read is redirected to the address without it (a redirect the edge does not keep),
  so made-up query strings cost the edge no key.
- ``shared_response`` does the same for the public read APIs, feeds and exports.
- Every key the site marked shareable (nginx sends it as ``X-Edge-Cache-Key``) is noted
  in Redis, the newest ``EDGE_PURGE_MAX_KEYS``, with what its answer read (``core.reads``:
  rows by the values it looked them up by, or whole tables). When anything a public page
  shows is saved (the models the apps ``watch``), one purge per transaction goes through
  the outbox, naming what the transaction changed; it asks every nginx in
  ``EDGE_PURGE_URLS`` to drop the keys of the answers that show something of it (or read
  the cache, or are not known), and no others.

Apps register from their ``AppConfig.ready()``: the models their pages show
(``watch_app``), the query parameters a page reads (``reads_query``), paths never shared
(``keep_private``), API prefixes (``register_api_prefix``) and early answers
(``answer_early``). core names no app.
"""

import hashlib
import http.client
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from functools import wraps
from typing import Any, overload
from urllib.parse import urlsplit

from celery import shared_task
from django.apps import AppConfig
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_init, post_save, pre_save
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.http.response import HttpResponseBase
from django.template.response import SimpleTemplateResponse
from django.urls import Resolver404, ResolverMatch, resolve
from django.utils.cache import (
    get_conditional_response,
    has_vary_header,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import escape_leading_slashes, http_date

from core import pagecache, reads
from core.cache import recent, remember_recent

logger = logging.getLogger(__name__)

ADMIN_PATH_PREFIX = "/admin/"
EDGE_KEY_HEADER = "X-Edge-Cache-Key"
EDGE_KEY_META = "HTTP_X_EDGE_CACHE_KEY"
KEYS_INDEX = "edge:keys"
SHAREABLE_API_STATUSES = {200, 301, 302}
WARNING_QUIET_SECONDS = 30

# Paths whose pages are never shared: staff, accounts, APIs (each opts in with
# shared_response), the health check; apps add their own with ``keep_private``.
# deploy/nginx/portal.conf's $portal_edge_private_path lists the same prefixes.
_private_path_prefixes: tuple[str, ...] = (ADMIN_PATH_PREFIX, "/accounts/", "/api/", "/healthz")
_shared_api_path_prefixes: tuple[str, ...] = ("/api/",)


def keep_private(*prefixes: str) -> None:
    """Pages whose paths start with one of ``prefixes`` are never marked shareable
    (endpoints, personal pages reached by a link)."""
    global _private_path_prefixes
    _private_path_prefixes += tuple(p for p in prefixes if p not in _private_path_prefixes)


def private_path_prefixes() -> tuple[str, ...]:
    """The path prefixes never shared, core's and those the apps registered."""
    return _private_path_prefixes


def register_api_prefix(*prefixes: str) -> None:
    """Paths under these prefixes are public APIs, as under ``/api/``: not pages (each
    view opts in with ``shared_response``), errors in plain text (``core.hostile``)."""
    global _shared_api_path_prefixes
    keep_private(*prefixes)
    _shared_api_path_prefixes += tuple(p for p in prefixes if p not in _shared_api_path_prefixes)


def api_path_prefixes() -> tuple[str, ...]:
    """``/api/`` and the API prefixes the apps registered."""
    return _shared_api_path_prefixes


# --- Changes: which saves purge the edge ---------------------------------------------------

_watched: set[type] = set()
# announce(changes) records one purge of the edge in the current transaction (None: of
# every page) and returns narrow(changes), which names what changed after all (the outbox
# registers it: core names no app).
View = Callable[..., HttpResponse]
Announce = Callable[[list[str] | None], Callable[[list[str]], None]]
_announce: Announce | None = None


def announce_changes_with(announce: Announce) -> None:
    """``announce(changes)`` records one purge of the edge in the current transaction and
    returns a function that narrows it to the changes given (the outbox registers it)."""
    global _announce
    _announce = announce


class _PurgeMarker:
    """Put in the transaction's on-commit list when its purge is recorded (one per
    transaction). Run after the commit, before the outbox delivers the purge, it narrows
    the purge from every page to what the transaction changed (``core.reads``: the rows
    its watched saves changed, and whole tables it wrote otherwise): should it not run
    (the process died at the commit), the purge drops every key, which is safe."""

    def __init__(self, connection: BaseDatabaseWrapper, changes: set[str]) -> None:
        self.connection, self.changes = connection, changes
        self.narrow: Callable[[list[str]], None] | None = None

    def __call__(self) -> None:
        changes = self.changes | reads.take_written(self.connection, self.changes)
        if self.narrow is not None:
            self.narrow(sorted(changes))


def content_changed(
    using: str | None = None, changes: set[str] | None = None, **kwargs: object
) -> None:
    """What public pages show changed: the kept lookups are discarded and, when edges are
    configured, one purge is recorded in the current transaction (the outbox delivers it
    after the commit). It names ``changes`` (``core.reads`` entries) and what the
    transaction wrote that they do not explain (outside a transaction: what the
    connection wrote since its last purge); ``changes=None``: every page."""
    pagecache.content_changed()
    transaction.on_commit(pagecache.content_changed, using=using)
    if not settings.EDGE_PURGE_URLS or _announce is None:
        return
    connection = transaction.get_connection(using)
    if not connection.in_atomic_block:
        if changes is None:
            _announce(None)
        elif named := sorted(changes | reads.take_written(connection, changes)):
            _announce(named)  # nothing named: nothing was written
        return
    marker = next(
        (entry[1] for entry in connection.run_on_commit if isinstance(entry[1], _PurgeMarker)),
        None,
    )
    if marker is not None:  # one purge per transaction, however many rows it saves
        if changes is None:
            marker.narrow = None  # every page, after all
        elif marker.narrow is not None:
            marker.changes |= changes
        return
    marker = _PurgeMarker(connection, set(changes or ()))
    transaction.on_commit(marker, using=using)  # before the outbox's delivery
    narrow = _announce(None)
    if changes is not None:
        marker.narrow = narrow


OLD_ROW = "_edge_old_row"


def _remember_old_row(
    sender: type[Model], instance: Model, raw: bool = False, **kwargs: Any
) -> None:
    """Before a watched row is saved: its values as they were (the pages that showed the
    row under its old values are purged too: a post moved to another category)."""
    if raw or instance.pk is None:
        return
    names = [field.attname for field in sender._meta.concrete_fields]
    old = sender._base_manager.using(kwargs.get("using")).filter(pk=instance.pk).values(*names)
    setattr(instance, OLD_ROW, next(iter(old), None))


def _row_saved(
    sender: type[Model], instance: Model, using: str | None = None, **kwargs: object
) -> None:
    changes = reads.row_entries(instance, getattr(instance, OLD_ROW, None))
    content_changed(using=using, changes=changes)


def _relation_changed(sender: type[Model], using: str | None = None, **kwargs: object) -> None:
    content_changed(using=using, changes={sender._meta.db_table})


def watch(*models: type[Model]) -> None:
    """Public pages show these models: a save or delete of one (or a change to one of its
    many-to-many relations) purges the edge."""
    for model in models:
        uid = f"edge:{model._meta.label_lower}"
        pre_save.connect(_remember_old_row, sender=model, dispatch_uid=uid + ":old")
        post_init.connect(reads.note_loaded, sender=model, dispatch_uid=uid + ":loaded")
        post_save.connect(_row_saved, sender=model, dispatch_uid=uid + ":save")
        post_delete.connect(_row_saved, sender=model, dispatch_uid=uid + ":delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                _relation_changed, sender=field.remote_field.through, dispatch_uid=uid + field.name
            )
        _watched.add(model)


def watch_app(app_config: AppConfig, *, except_for: tuple[str, ...] = ()) -> None:
    """Watch every model of ``app_config`` but those named (model names, lower case):
    models no public page shows, or that change only in bulk with a watched row saved in
    the same transaction."""
    unknown = set(except_for) - {model._meta.model_name for model in app_config.get_models()}
    if unknown:
        raise LookupError(f"{app_config.label} has no models named {sorted(unknown)}")
    watch(*(m for m in app_config.get_models() if m._meta.model_name not in except_for))


def watched_models() -> frozenset[type]:
    """The models whose saves purge the edge, as the apps registered them."""
    return frozenset(_watched)


# --- The keys the edge may hold, and purging them ------------------------------------------


class _Warned:
    at = -math.inf


def _warn(message: str, *args: object) -> None:
    """One line per process every WARNING_QUIET_SECONDS, not one per request."""
    now = time.monotonic()
    if now - _Warned.at >= WARNING_QUIET_SECONDS:
        _Warned.at = now
        logger.warning(message, *args)


# A noted key and what its answer read (core.reads entries), in one member of the set.
NOTE_SEPARATOR = "\n"  # never in a key: nginx's $request_uri has no raw line break


def _note_key(request: HttpRequest, read: frozenset[str] | None) -> None:
    """Note the request's key with what its answer read (``core.reads`` entries; None:
    not known, purged by every change)."""
    key = request.META.get(EDGE_KEY_META)
    if key and settings.EDGE_PURGE_URLS:
        entries = ",".join(sorted(read)) if read is not None else reads.EVERYTHING
        remember_recent(KEYS_INDEX, f"{key}{NOTE_SEPARATOR}{entries}", settings.EDGE_PURGE_MAX_KEYS)


def noted(since: float = 0) -> list[tuple[str, frozenset[str]]] | None:
    """The edge keys marked shareable since ``since`` (Unix time), newest first, each with
    what its answer read; None when Redis cannot be read."""
    members = recent(KEYS_INDEX, since)
    if members is None:
        return None
    found = []
    for member in members:
        key, _, entries = member.partition(NOTE_SEPARATOR)
        found.append((key, frozenset(entries.split(",")) if entries else frozenset()))
    return found


def noted_keys(since: float = 0) -> list[str] | None:
    """The edge keys marked shareable since ``since``, newest first; None when Redis
    cannot be read."""
    found = noted(since)
    return None if found is None else list(dict.fromkeys(key for key, _ in found))


def keys_showing(changes: list[str] | None, since: float = 0) -> list[str] | None:
    """The noted keys whose answers show something of ``changes`` (``core.reads``
    entries; None: every key); None when Redis cannot be read."""
    found = noted(since)
    if found is None:
        return None
    return list(
        dict.fromkeys(key for key, read in found if changes is None or reads.matches(read, changes))
    )


def _purge_endpoint(url: str, keys: list[str]) -> int:
    """Ask one nginx to drop ``keys`` over one connection; how many it held."""
    bits = urlsplit(url)
    if bits.hostname is None:  # reported with the other failures, not an AttributeError
        raise http.client.InvalidURL(f"no host in {url!r}")
    connection_class = (
        http.client.HTTPSConnection if bits.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_class(bits.hostname, bits.port, timeout=settings.EDGE_PURGE_TIMEOUT)
    dropped = 0
    try:
        for key in keys:
            connection.request("PURGE", bits.path or "/purge", headers={EDGE_KEY_HEADER: key})
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                dropped += 1
            elif response.status != 404:  # 404: that nginx did not hold the key
                raise ConnectionError(f"purge refused by {bits.netloc}: {response.status}")
    finally:
        connection.close()
    return dropped


def purge(keys: list[str]) -> dict[str, int]:
    """Drop ``keys`` from every edge in EDGE_PURGE_URLS; how many each held. Tries every
    edge, then raises if any failed (the outbox retries the whole purge)."""
    dropped, failed = {}, []
    for url in settings.EDGE_PURGE_URLS:
        try:
            dropped[url] = _purge_endpoint(url, keys)
        except (OSError, http.client.HTTPException) as error:
            failed.append(f"{url}: {type(error).__name__}: {error}")
    if failed:
        raise ConnectionError("; ".join(failed))
    return dropped


def purge_noted(changes: list[str] | None = None) -> dict[str, int]:
    """The outbox's side effect after a change: the noted keys whose answers show
    something of ``changes`` (None: every noted key), from every edge. Then,
    EDGE_PURGE_AGAIN_SECONDS later, a second pass (best effort, a task of its own) drops
    those noted since shortly before the first: an answer built from the rows as they
    were before the commit may have reached an edge just after it."""
    started = time.time()
    keys = keys_showing(changes)
    if keys is None:
        raise ConnectionError("the edge keys cannot be read from Redis")
    dropped = purge(keys)
    logger.info("edge purge: %s keys, dropped %s", len(keys), dropped)
    if settings.EDGE_PURGE_AGAIN_SECONDS > 0:
        since = started - settings.EDGE_PURGE_AGAIN_SECONDS
        try:
            purge_again.apply_async((since, changes), countdown=settings.EDGE_PURGE_AGAIN_SECONDS)
        except Exception as error:  # the broker is down: s-maxage bounds what is left
            _warn("edge purge: second pass not sent (%s)", type(error).__name__)
    return dropped


@shared_task(ignore_result=True)
def purge_again(since: float, changes: list[str] | None = None) -> dict[str, int]:
    """The second pass of ``purge_noted``: the keys noted since ``since`` that show
    something of ``changes``."""
    keys = keys_showing(changes, since) or []
    return purge(keys) if keys else {}


# --- Marking answers shareable -------------------------------------------------------------


def _is_anonymous(request: HttpRequest) -> bool:
    cookies = request.COOKIES
    return (
        settings.SESSION_COOKIE_NAME not in cookies
        and CookieStorage.cookie_name not in cookies
        and "HTTP_AUTHORIZATION" not in request.META
    )


_query_parameters: dict[str, frozenset[str]] = {}


def reads_query(view_name: str, *names: str) -> None:
    """The page at the URL named ``view_name`` (``"foundation:news-list"``) reads these
    query parameters; anonymous visitors asking with others are redirected to the address
    without them."""
    _query_parameters[view_name] = _query_parameters.get(view_name, frozenset()) | set(names)


def query_parameters(view_name: str) -> frozenset[str]:
    return _query_parameters.get(view_name, frozenset())


def _resolved(request: HttpRequest) -> ResolverMatch | None:
    try:
        return resolve(request.path_info)
    except Resolver404:
        return None


def _unread_parameters_dropped(request: HttpRequest, match: ResolverMatch) -> HttpResponse | None:
    """A redirect to the address without the query parameters the page does not read,
    or None when it has none of those."""
    wanted = query_parameters(match.view_name)
    if all(name in wanted for name in request.GET):
        return None
    kept = QueryDict(mutable=True)
    for name, values in request.GET.lists():
        if name in wanted:
            kept.setlist(name, values)
    query = kept.urlencode()
    location = escape_leading_slashes(request.path) + (f"?{query}" if query else "")
    # Temporary, so that a page that starts reading a parameter does not meet browsers
    # remembering a redirect that drops it; private, so that no shared cache keeps one
    # per made-up value.
    response = HttpResponseRedirect(location)
    response["Cache-Control"] = "private, max-age=3600"
    return response


def _no_cache_words(response: HttpResponseBase) -> bool:
    cache_control = response.get("Cache-Control", "").lower()
    return any(word in cache_control for word in ("private", "no-store", "no-cache"))


def _shareable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """A page any anonymous visitor may be shown: nothing of this visitor's in it."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if response.has_header("Content-Encoding") or _no_cache_words(response):
        return False
    vary = {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}
    if vary - {"cookie"}:
        return False
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return False
    messages = getattr(request, "_messages", None)
    return not (messages is not None and (messages.used or messages._queued_messages))


def _validators(response: HttpResponse, live: bool = False) -> tuple[str, int]:
    """The ETag (the view's own when it set one, such as a file's checksum; otherwise a
    digest of the body) and Last-Modified of a shared answer: when the content it is built
    from last changed (the kept lookups' generation), now for a live answer."""
    etag = response.get("ETag") or (
        '"' + hashlib.blake2b(response.content, digest_size=16).hexdigest() + '"'
    )
    return etag, int(time.time() if live else pagecache.content_since())


def _mark_shared(
    request: HttpRequest,
    response: HttpResponse,
    read: frozenset[str] | None,
    *,
    max_age: int | None = None,
    shared_max_age: int | None = None,
    live: bool = False,
) -> HttpResponse:
    """Headers of an answer every anonymous client may get, the key noted for purging
    with what it ``read``; ``304`` when the client's copy is current."""
    etag, last_modified = _validators(response, live)
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    if max_age is not None and response.has_header("Cache-Control"):
        del response["Cache-Control"]
    directives = {
        d.strip().split("=")[0].lower() for d in response.get("Cache-Control", "").split(",")
    }
    if "max-age" not in directives:
        patch_cache_control(response, max_age=max_age or 0)
    if shared_max_age is None:
        shared_max_age = settings.PAGE_CACHE_SHARED_MAX_AGE
    patch_cache_control(response, public=True, s_maxage=shared_max_age)
    if shared_max_age > 0:
        _note_key(request, read)
    return get_conditional_response(  # type: ignore[return-value]  # never None given a response
        request, etag=etag, last_modified=last_modified, response=response
    )


def _make_private(response: HttpResponseBase) -> None:
    """Never let a shared cache keep a page built for one visitor."""
    cache_control = response.get("Cache-Control", "")
    if "public" in cache_control or "s-maxage" in cache_control:
        del response["Cache-Control"]
    patch_cache_control(response, private=True, no_cache=True)
    if not has_vary_header(response, "Cookie"):
        patch_vary_headers(response, ["Cookie"])


_early_answers: dict[str, Callable[[HttpRequest, ResolverMatch], HttpResponse | None]] = {}


def answer_early(
    view_name: str, answer: Callable[[HttpRequest, ResolverMatch], HttpResponse | None]
) -> None:
    """Let ``answer(request, match)`` reply to anonymous GETs of the API URL named
    ``view_name`` right after this middleware, before sessions, CSRF, CSP and the view's
    framework: for hot answers that cannot be shared but need none of those. It returns
    None to let the request go on to the view (which words the errors)."""
    _early_answers[view_name] = answer


def _answer_early(request: HttpRequest) -> HttpResponse | None:
    if not _early_answers:
        return None
    match = _resolved(request)
    if match is None:
        return None
    answer = _early_answers.get(match.view_name)
    return answer(request, match) if answer else None


class EdgeCacheMiddleware:
    """Marks anonymous GETs of pages shareable, signed-in pages private; see the module
    docstring. Goes right after WhiteNoise, before the session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "POST" and request.path.startswith(ADMIN_PATH_PREFIX):
            response = self.get_response(request)
            # Admin actions may change shown rows in bulk, without model signals: the
            # purge names the tables the request wrote that no save explains.
            if response.status_code < 400:
                content_changed(changes=set())
            return response
        if request.method != "GET":
            return self.get_response(request)
        if request.path.startswith(_shared_api_path_prefixes):
            if _is_anonymous(request):
                return _answer_early(request) or self._noting_reads(request)
            return self.get_response(request)
        if request.path.startswith(_private_path_prefixes):
            return self.get_response(request)
        if not _is_anonymous(request):
            response = self.get_response(request)
            if response.get("Content-Type", "").startswith("text/html") or response.cookies:
                _make_private(response)
            return response
        match = _resolved(request)
        if match is None:  # no page here (404, or a slash to append)
            return self.get_response(request)
        redirect = _unread_parameters_dropped(request, match)
        if redirect is not None:
            return redirect
        response = self._noting_reads(request)
        if not _shareable(request, response):
            if response.cookies:
                _make_private(response)
            return response
        patch_vary_headers(response, ["Cookie"])
        return _mark_shared(request, response, getattr(request, "edge_reads", None))

    def _noting_reads(self, request: HttpRequest) -> HttpResponse:
        """The answer, with what it read noted (``request.edge_reads``)."""
        token = reads.start()
        try:
            return self.get_response(request)
        finally:
            request.edge_reads = reads.stop(token)  # type: ignore[attr-defined]  # ours to add


def _shareable_answer(request: HttpRequest, response: HttpResponseBase) -> bool:
    """An API answer any client may be given: nothing of this client's in it."""
    if response.status_code not in SHAREABLE_API_STATUSES or response.streaming:
        return False
    if response.cookies or response.has_header("Vary") or _no_cache_words(response):
        return False
    # A view that looked at the user (or the session) may have answered for this client.
    session = getattr(request, "session", None)
    return not (session is not None and session.accessed)


@overload
def shared_response(view: View, *, max_age: int = 0, live: bool = False) -> View: ...
@overload
def shared_response(
    view: None = None, *, max_age: int = 0, live: bool = False
) -> Callable[[View], View]: ...
def shared_response(
    view: View | None = None, *, max_age: int = 0, live: bool = False
) -> Callable[[View], View] | View:
    """Mark a public read view's GET answers shareable, for any client.

    ``path("api/x/", shared_response(views.x))``. The answer carries ``ETag``,
    ``Last-Modified`` and ``Cache-Control: public, max-age=<max_age>, s-maxage=...`` and
    no ``Vary`` (the view must not depend on cookies or headers: one that touches the
    session is never shared); conditional requests get 304. 200s and redirects are
    shared, other answers (400, 404) are not, and neither is an answer whose view did
    not read every query parameter the request carried (one copy per made-up value).
    ``live=True`` is for answers computed from data that changes without a watched save
    (incoming feedback reports): the edge keeps them ``API_CACHE_LIVE_SECONDS``."""

    def decorate(view: View) -> View:
        @wraps(view)
        def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "GET":
                return view(request, *args, **kwargs)
            query = _ReadParameters.watching(request.GET)
            request.GET = query  # type: ignore[assignment]  # a QueryDict that notes reads
            response = view(request, *args, **kwargs)
            if isinstance(response, SimpleTemplateResponse) and not response.is_rendered:
                response.render()
            read = reads.so_far()  # what the view read (before the validators are asked)
            if query.unread() or not _shareable_answer(request, response):
                if "public" in response.get("Cache-Control", ""):
                    _make_private(response)
                return response
            shared_max_age = (
                settings.API_CACHE_LIVE_SECONDS if live else settings.PAGE_CACHE_SHARED_MAX_AGE
            )
            if response.status_code != 200:  # a redirect: shared, with no validators
                if response.has_header("Cache-Control"):
                    del response["Cache-Control"]
                patch_cache_control(response, public=True, max_age=0, s_maxage=shared_max_age)
                if shared_max_age > 0:
                    _note_key(request, read)
                return response
            return _mark_shared(
                request, response, read, max_age=max_age, shared_max_age=shared_max_age, live=live
            )

        return serve

    return decorate if view is None else decorate(view)


class _ReadParameters(QueryDict):
    """``request.GET`` that notes which parameters the view looked at: an answer is shared
    only when the view read every parameter the request carried (any listing of them
    counts as reading them all)."""

    def __init__(
        self,
        query_string: str | bytes | None = None,
        mutable: bool = False,
        encoding: str | None = None,
    ) -> None:
        super().__init__(query_string, mutable=mutable, encoding=encoding)
        self.read: set[str] = set()

    @classmethod
    def watching(cls, query: QueryDict) -> "_ReadParameters":
        copy = cls(mutable=True, encoding=query.encoding)
        for name, values in query.lists():
            copy.setlist(name, values)
        copy._mutable = False
        return copy

    def unread(self) -> set[str]:
        return set(dict.keys(self)) - self.read

    def _all_read(self) -> None:
        self.read.update(dict.keys(self))

    def __getitem__(self, key: str) -> str:
        self.read.add(key)
        return super().__getitem__(key)  # type: ignore[return-value]  # a str for a QueryDict

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return super().__contains__(key)

    def _getlist(self, key: str, *args: Any, **kwargs: Any) -> Any:
        self.read.add(key)
        return super()._getlist(key, *args, **kwargs)  # type: ignore[misc]  # unstubbed

    def __iter__(self) -> Iterator[str]:
        self._all_read()
        return super().__iter__()

    def keys(self) -> Any:
        self._all_read()
        return super().keys()

    def lists(self) -> Iterable[tuple[str, list[str]]]:
        self._all_read()
        return super().lists()

    def __copy__(self) -> "_ReadParameters":
        self._all_read()
        return super().__copy__()

    def __deepcopy__(self, memo: MutableMapping[int, Any]) -> "_ReadParameters":
        self._all_read()
        return super().__deepcopy__(memo)
