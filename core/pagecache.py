"""Whole-page cache for anonymous visitors, in the shared cache (Redis).

A visitor who sends no session cookie, no messages cookie and no Authorization header
is anonymous: every such visitor sees the same page for the same URL, so the first one
to ask builds it and the others are served the stored copy. Anyone else (signed in, or
with something personal pending) always gets a fresh page marked ``private``.

Freshness comes from a site-wide *content generation*: a token in the cache that is part
of every page key. Saving or deleting anything a public page shows (the models each app
registers with ``watch`` from its ``AppConfig.ready()``) discards the token, right away
and again once the transaction commits, so the next request builds pages anew. The token
also expires on its own at the next moment content changes without a save (a news post's
scheduled publication time, registered by apps through ``register_scheduled_change``;
local midnight, for pages that depend on today's date) and after ``PAGE_CACHE_TIMEOUT`` at the latest, which bounds the
damage of a lost invalidation while the cache was unreachable.

The cache is never trusted to work: any error reading or writing it means the page is
built as if nothing were cached.
"""

import hashlib
import logging
import math
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.core.signals import setting_changed
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import Resolver404, ResolverMatch, resolve
from django.utils import timezone
from django.utils.cache import (
    get_conditional_response,
    has_vary_header,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import escape_leading_slashes, http_date, urlencode

logger = logging.getLogger(__name__)

GENERATION_KEY = "pagecache:generation"
PAGE_KEY_PREFIX = "pagecache:page"
HIT_HEADER = "X-Page-Cache"
MAX_PAGE_BYTES = 2_000_000
LOCAL_MAX_PAGES = 500
WARNING_QUIET_SECONDS = 30

ADMIN_PATH_PREFIX = "/admin/"
# Paths whose pages are never shared: staff, accounts, APIs (each opts in with
# shared_response), the health check; apps add their own with ``keep_private``.
_private_path_prefixes: tuple[str, ...] = (ADMIN_PATH_PREFIX, "/accounts/", "/api/", "/healthz")


def keep_private(*prefixes: str) -> None:
    """Pages whose paths start with one of ``prefixes`` are never stored or served from
    the page cache (endpoints, personal pages reached by a link). Apps register theirs
    from ``AppConfig.ready()``."""
    global _private_path_prefixes
    _private_path_prefixes += tuple(p for p in prefixes if p not in _private_path_prefixes)


def private_path_prefixes() -> tuple[str, ...]:
    """The path prefixes never cached, core's and those the apps registered."""
    return _private_path_prefixes


_scheduled_changes: list[Callable[[datetime], datetime | None]] = []


def register_scheduled_change(provider: Callable[[datetime], datetime | None]) -> None:
    """Register ``provider(now)``: the next time after ``now`` that a public page changes
    without anything being saved (such as a post's scheduled publication), or None."""
    _scheduled_changes.append(provider)


def content_changed(**kwargs) -> None:
    """Pages built before now are stale: the next request builds them again."""
    _LastSeen.forget()
    try:
        cache.delete(GENERATION_KEY)
    except Exception as error:
        _warn_unavailable("discard", error)


class _Warned:
    at = -math.inf


def _warn_unavailable(operation: str, error: Exception) -> None:
    """One line per process every WARNING_QUIET_SECONDS, not one per request."""
    now = time.monotonic()
    if now - _Warned.at >= WARNING_QUIET_SECONDS:
        _Warned.at = now
        logger.warning(
            "page cache %s failed (%s): pages are built uncached", operation, type(error).__name__
        )


def _content_saved(sender, using=None, **kwargs):
    content_changed()
    # Again after the commit: a request between the first discard and the commit may
    # have stored the old content under a new generation.
    transaction.on_commit(content_changed, using=using)


_watched: set[type] = set()


def watch(*models) -> None:
    """Public pages show these models: a save or delete of one (or a change to one of its
    many-to-many relations) rebuilds the pages. Each app calls it from its
    ``AppConfig.ready()`` for the models it shows (``watch_app``)."""
    for model in models:
        uid = f"pagecache:{model._meta.label_lower}"
        post_save.connect(_content_saved, sender=model, dispatch_uid=uid + ":save")
        post_delete.connect(_content_saved, sender=model, dispatch_uid=uid + ":delete")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                _content_saved, sender=field.remote_field.through, dispatch_uid=uid + field.name
            )
        _watched.add(model)


def watch_app(app_config, *, except_for: tuple[str, ...] = ()) -> None:
    """Watch every model of ``app_config`` but those named (model names, lower case):
    models no public page shows, or that change only in bulk with a watched row saved in
    the same transaction."""
    unknown = set(except_for) - {model._meta.model_name for model in app_config.get_models()}
    if unknown:
        raise LookupError(f"{app_config.label} has no models named {sorted(unknown)}")
    watch(*(m for m in app_config.get_models() if m._meta.model_name not in except_for))


def watched_models() -> frozenset[type]:
    """The models whose saves rebuild public pages, as the apps registered them."""
    return frozenset(_watched)


def connect_signals() -> None:
    """Tests change settings that pages depend on (thresholds, feature switches)."""
    setting_changed.connect(content_changed, dispatch_uid="pagecache:settings")


def generation_lifetime(now: datetime) -> int:
    """Seconds until the content may change without a save, capped by the timeout."""
    ends = [now + timedelta(seconds=settings.PAGE_CACHE_TIMEOUT)]
    local = timezone.localtime(now)
    ends.append((local + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0))
    for provider in _scheduled_changes:
        when = provider(now)
        if when is not None:
            ends.append(when)
    return max(1, math.ceil((min(ends) - now).total_seconds()))


def _start_generation() -> str:
    fresh = str(time.time_ns())
    cache.add(GENERATION_KEY, fresh, timeout=generation_lifetime(timezone.now()))
    return cache.get(GENERATION_KEY) or fresh


class _LastSeen:
    """What this process saw last. A hit needs one round trip (MGET of the generation and
    the page under it) while the generation is unchanged, and none at all for a page
    this process found in the cache (or stored) within the last PAGE_CACHE_LOCAL_SECONDS:
    each page's own time counts, so a copy is never older than that beside the cache's
    (an answer stored for API_CACHE_LIVE_SECONDS expires here too)."""

    generation = ""
    checked_at = -math.inf
    pages: dict[str, tuple[str, dict, float]] = {}

    @classmethod
    def forget(cls):
        cls.generation, cls.checked_at, cls.pages = "", -math.inf, {}


def _page_key(generation: str, address: str) -> str:
    return f"{PAGE_KEY_PREFIX}:{generation}:{address}"


def _lookup(address: str) -> tuple[str, dict | None]:
    """The current generation, and the page at this address digest if stored."""
    now = time.monotonic()
    generation = _LastSeen.generation
    fresh = settings.PAGE_CACHE_LOCAL_SECONDS
    if now - _LastSeen.checked_at < fresh:
        local = _LastSeen.pages.get(address)
        if local is not None and local[0] == generation and now - local[2] < fresh:
            return generation, local[1]
    guessed = _page_key(generation, address)
    found = cache.get_many([GENERATION_KEY, guessed])
    current = found.get(GENERATION_KEY) or _start_generation()
    _LastSeen.checked_at = now
    if current == generation:
        stored = found.get(guessed)
    else:
        _LastSeen.generation, _LastSeen.pages = current, {}
        stored = cache.get(_page_key(current, address))
    if stored is not None:
        _remember(address, current, stored)
    return current, stored


def _lookup_or_none(address: str) -> tuple[str | None, dict | None]:
    """``_lookup``, or (None, None) when the cache cannot be read (logged once)."""
    try:
        return _lookup(address)
    except Exception as error:
        _warn_unavailable("read", error)
        return None, None


def _store(address: str, generation: str, entry: dict, lifetime: int) -> None:
    """Keep ``entry`` under the generation, and in this process; a failed write is logged."""
    try:
        cache.set(_page_key(generation, address), entry, timeout=lifetime)
    except Exception as error:
        _warn_unavailable("write", error)
    else:
        _remember(address, generation, entry)


def _remember(address: str, generation: str, stored: dict) -> None:
    if settings.PAGE_CACHE_LOCAL_SECONDS <= 0:
        return
    if len(_LastSeen.pages) >= LOCAL_MAX_PAGES:
        _LastSeen.pages = {}
    _LastSeen.pages[address] = (generation, stored, time.monotonic())


def _is_anonymous(request) -> bool:
    cookies = request.COOKIES
    return (
        settings.SESSION_COOKIE_NAME not in cookies
        and CookieStorage.cookie_name not in cookies
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _address_digest(request) -> str:
    """The key part for this address: the query's parameters in a fixed order, so the
    same parameters in another order are the same page."""
    query = urlencode(sorted(request.GET.lists()), doseq=True)
    address = f"{request.scheme}://{request.get_host()}{request.path}" + (
        f"?{query}" if query else ""
    )
    return hashlib.blake2b(address.encode(), digest_size=16).hexdigest()


# --- The query parameters a page reads ----------------------------------------------------
#
# Every distinct address is a page of its own in the cache, so an anonymous GET with a
# query parameter its page does not read (``/news/?x=1``, ``?x=2``, ...) would store a
# copy of the same page per value. A page declares the parameters it reads; an anonymous
# GET with any other is redirected to the same address without them (and costs no key),
# and an address no page answers is never looked up or stored.

_query_parameters: dict[str, frozenset[str]] = {}


def reads_query(view_name: str, *names: str) -> None:
    """The page at the URL named ``view_name`` (``"foundation:news-list"``) reads these
    query parameters; anonymous visitors asking with others are redirected to the address
    without them. Apps declare from ``AppConfig.ready()``, next to ``watch_app``."""
    _query_parameters[view_name] = _query_parameters.get(view_name, frozenset()) | set(names)


def query_parameters(view_name: str) -> frozenset[str]:
    return _query_parameters.get(view_name, frozenset())


def _resolved(request) -> ResolverMatch | None:
    try:
        return resolve(request.path_info)
    except Resolver404:
        return None


def _unread_parameters_dropped(request, match: ResolverMatch) -> HttpResponse | None:
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
    # Temporary: a page that starts reading a parameter must not find browsers that
    # remember a redirect dropping it.
    response = HttpResponseRedirect(location)
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _shareable(request, response) -> bool:
    """A page any anonymous visitor may be shown: nothing of this visitor's in it."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if len(response.content) > MAX_PAGE_BYTES or response.has_header("Content-Encoding"):
        return False
    cache_control = response.get("Cache-Control", "").lower()
    if any(word in cache_control for word in ("private", "no-store", "no-cache")):
        return False
    vary = {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}
    if vary - {"cookie"}:
        return False
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return False
    messages = getattr(request, "_messages", None)
    return not (messages is not None and (messages.used or messages._queued_messages))


def _shared_cache_headers(response, etag: str, last_modified: float) -> None:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    directives = {
        d.strip().split("=")[0].lower() for d in response.get("Cache-Control", "").split(",")
    }
    if "max-age" not in directives:
        patch_cache_control(response, max_age=0)
    patch_cache_control(response, public=True, s_maxage=settings.PAGE_CACHE_SHARED_MAX_AGE)
    patch_vary_headers(response, ["Cookie"])


def _make_private(response) -> None:
    """Never let a shared cache keep a page built for one visitor."""
    cache_control = response.get("Cache-Control", "")
    if "public" in cache_control or "s-maxage" in cache_control:
        del response["Cache-Control"]
    patch_cache_control(response, private=True, no_cache=True)
    if not has_vary_header(response, "Cookie"):
        patch_vary_headers(response, ["Cookie"])


class AnonymousPageCacheMiddleware:
    """Serves anonymous GET requests from the page cache; see the module docstring.

    Goes right after WhiteNoise, before the session: a hit skips everything else."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.path.startswith(ADMIN_PATH_PREFIX):
            response = self.get_response(request)
            # Admin actions may change shown rows in bulk, without model signals.
            if response.status_code < 400:
                content_changed()
            return response
        if (
            settings.PAGE_CACHE_TIMEOUT > 0
            and request.method == "GET"
            and request.path.startswith(_shared_api_path_prefixes)
            and _is_anonymous(request)
        ):
            # Answers stored by @shared_response views; a miss goes on to the view, or to
            # the early answer registered for its URL.
            address = _address_digest(request)
            generation, stored = _lookup_or_none(address)
            if _is_answer(stored):
                return _replay(request, stored)
            response = _answer_early(request) or self.get_response(request)
            if stored is None and generation and "no-store" in response.get("Cache-Control", ""):
                # Never stored (the download redirect counts each request): this process
                # skips the lookup for it while the generation lasts.
                _remember(address, generation, _NOT_SHARED)
            return response
        if (
            settings.PAGE_CACHE_TIMEOUT <= 0
            or request.method != "GET"
            or request.path.startswith(_private_path_prefixes)
        ):
            return self.get_response(request)
        if not _is_anonymous(request):
            response = self.get_response(request)
            if response.get("Content-Type", "").startswith("text/html") or response.cookies:
                _make_private(response)
            return response
        match = _resolved(request)
        if match is None:  # no page here (404, or a slash to append): nothing to keep
            return self.get_response(request)
        redirect = _unread_parameters_dropped(request, match)
        if redirect is not None:
            return redirect

        address = _address_digest(request)
        generation, stored = _lookup_or_none(address)
        if _is_answer(stored):
            return _replay(request, stored)
        leading = False
        if stored is None:
            leading, stored = _lead_or_wait(generation, address)
            if _is_answer(stored):
                return _replay(request, stored)
        try:
            response = self.get_response(request)
        finally:
            if leading:
                _done_building(generation, address)
        if not _shareable(request, response):
            if response.cookies:
                _make_private(response)
            if stored is None:
                _mark_unshared(generation, address)
            return response
        etag, last_modified = _validators(response)
        _shared_cache_headers(response, etag, last_modified)
        key, validators = (generation, address), (etag, last_modified)
        return _keep_and_answer(request, response, key, validators, settings.PAGE_CACHE_TIMEOUT)


def _validators(response) -> tuple[str, float]:
    """The ETag and Last-Modified (now) of an answer to store: the view's own ETag when
    it set one (a published file's checksum), else a digest of the body."""
    etag = response.get("ETag") or (
        '"' + hashlib.blake2b(response.content, digest_size=16).hexdigest() + '"'
    )
    return etag, float(int(time.time()))


def _keep_and_answer(request, response, key, validators, lifetime):
    """Store ``response`` for every client under ``key`` (generation, address), then
    answer ``request`` with it, or with 304 when the client's copy is current."""
    (generation, address), (etag, last_modified) = key, validators
    if generation is not None:
        entry = {
            "status": response.status_code,
            "headers": list(response.items()),
            "content": response.content,
            "etag": etag,
            "last_modified": last_modified,
        }
        _store(address, generation, entry, lifetime)
    response[HIT_HEADER] = "miss"
    return get_conditional_response(
        request, etag=etag, last_modified=last_modified, response=response
    )


def _replay(request, stored):
    response = HttpResponse(stored["content"], status=stored["status"])
    for name, value in stored["headers"]:
        response[name] = value
    response[HIT_HEADER] = "hit"
    return get_conditional_response(
        request, etag=stored["etag"], last_modified=stored["last_modified"], response=response
    )


_early_answers: dict[str, Callable[[HttpRequest, ResolverMatch], HttpResponse | None]] = {}


def answer_early(
    view_name: str, answer: Callable[[HttpRequest, ResolverMatch], HttpResponse | None]
):
    """Let ``answer(request, match)`` reply to anonymous GETs of the API URL named
    ``view_name`` (``"releases:compat-download"``) right after the page cache, before
    sessions, CSRF, CSP and the view's framework: for hot answers that cannot be stored
    but need none of those. It returns None to let the request go on to the view (which
    words the errors). Apps register from ``AppConfig.ready()``."""
    _early_answers[view_name] = answer


def _answer_early(request) -> HttpResponse | None:
    if not _early_answers:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    answer = _early_answers.get(match.view_name)
    return answer(request, match) if answer else None


def kept_with_content(name: str, build: Callable[[], object]) -> object:
    """``build()``, kept like a page under the content generation: for views whose answer
    cannot be stored whole (it differs per client or each request is counted) but whose
    lookups depend only on watched content. One round trip to the cache at most per
    request (none within PAGE_CACHE_LOCAL_SECONDS); built each time if the cache is
    unreachable or PAGE_CACHE_TIMEOUT is 0. The value must pickle; None is kept too."""
    if settings.PAGE_CACHE_TIMEOUT <= 0:
        return build()
    address = "value:" + hashlib.blake2b(name.encode(), digest_size=16).hexdigest()
    generation, stored = _lookup_or_none(address)
    if stored is not None and "value" in stored:
        return stored["value"]
    value = build()
    if generation is not None:
        _store(address, generation, {"value": value}, settings.PAGE_CACHE_TIMEOUT)
    return value


# --- One build per page, and the same cache for public read APIs -------------------------
#
# When the generation is discarded every stored page misses at once. The first request
# for a page takes a short lock and builds it; the others for the same page wait for the
# stored copy (polling every BUILD_POLL_SECONDS, for at most PAGE_CACHE_BUILD_WAIT) instead
# of all building it together. A page that turns out not to be shareable leaves a marker,
# so later requests for it build at once instead of waiting.

BUILD_LOCK_PREFIX = "pagecache:building"
BUILD_POLL_SECONDS = 0.01
# Public read APIs whose answers @shared_response views store: the middleware serves a
# stored answer to an anonymous GET before the rest of the stack, as it does pages. Apps
# whose APIs live elsewhere than /api/ add their prefix with ``register_api_prefix``.
_shared_api_path_prefixes: tuple[str, ...] = ("/api/",)


def register_api_prefix(*prefixes: str) -> None:
    """Paths under these prefixes are public APIs, as under ``/api/``: never kept as pages
    (``keep_private``), anonymous GETs answered from what ``shared_response`` views
    stored before the rest of the stack, errors in plain text (``core.hostile``)."""
    global _shared_api_path_prefixes
    keep_private(*prefixes)
    _shared_api_path_prefixes += tuple(p for p in prefixes if p not in _shared_api_path_prefixes)


def api_path_prefixes() -> tuple[str, ...]:
    """``/api/`` and the API prefixes the apps registered."""
    return _shared_api_path_prefixes


_NOT_SHARED = {"shared": False}


def _pause(seconds: float) -> None:
    """Between two looks for the page another request is building (tests observe it)."""
    time.sleep(seconds)


def _is_answer(stored) -> bool:
    return stored is not None and stored.get("shared", True)


def _lock_key(generation: str, address: str) -> str:
    return f"{BUILD_LOCK_PREFIX}:{generation}:{address}"


def _lead_or_wait(generation: str | None, address: str) -> tuple[bool, dict | None]:
    """(True, None) when this request should build the page; otherwise another request
    is building it: (False, what it stored), or (False, None) if it took too long."""
    if generation is None or settings.PAGE_CACHE_BUILD_WAIT <= 0:
        return False, None
    lock, key = _lock_key(generation, address), _page_key(generation, address)
    try:
        if cache.add(lock, 1, timeout=settings.PAGE_CACHE_BUILD_WAIT):
            return True, None
        deadline = time.monotonic() + settings.PAGE_CACHE_BUILD_WAIT
        while time.monotonic() < deadline:
            # Wait only while the lock is seen: a cache that cannot be reached (a fail-soft
            # backend answers "not added" and "nothing there") or a builder that gave up
            # without storing means building now.
            found = cache.get_many([key, lock])
            if key in found:
                return False, found[key]
            if lock not in found:
                return False, None
            _pause(BUILD_POLL_SECONDS)
    except Exception as error:
        _warn_unavailable("read", error)
    return False, None


def _done_building(generation: str, address: str) -> None:
    try:
        cache.delete(_lock_key(generation, address))
    except Exception as error:
        _warn_unavailable("write", error)


def _mark_unshared(generation: str | None, address: str) -> None:
    """Tell the requests waiting for this page that no copy is coming."""
    if generation is None:
        return
    try:
        cache.add(_page_key(generation, address), _NOT_SHARED, timeout=settings.PAGE_CACHE_TIMEOUT)
    except Exception as error:
        _warn_unavailable("write", error)


SHAREABLE_API_STATUSES = {200, 301, 302, 404, 410}


def _shareable_answer(request, response) -> bool:
    """An API answer any client may be given: nothing of this client's in it."""
    if response.status_code not in SHAREABLE_API_STATUSES or response.streaming:
        return False
    if response.cookies or response.has_header("Vary"):
        return False
    if any(w in response.get("Cache-Control", "") for w in ("private", "no-store", "no-cache")):
        return False
    # A view that looked at the user (or the session) may have answered for this client.
    session = getattr(request, "session", None)
    return not (session is not None and session.accessed)


def shared_response(view=None, *, max_age=0, live=False):
    """Serve a public read view's GET answers from the page cache, for any client.

    ``path("api/x/", shared_response(views.x))`` or ``@shared_response``. The answer is
    stored under the content generation, so saving anything public pages show replaces
    it at once; conditional requests get 304; the answer carries ``ETag``,
    ``Last-Modified`` and ``Cache-Control: public, max-age=<max_age>, s-maxage=...`` and
    no ``Vary`` (the view must not depend on cookies or headers: one that touches the
    session is never stored). 200s, redirects and 404s are stored; other answers pass.
    ``live=True`` is for answers computed from data that changes without a watched save
    (incoming feedback reports): they are stored for ``API_CACHE_LIVE_SECONDS`` at most,
    and not at all when that is 0."""

    def decorate(view):
        @wraps(view)
        def serve(request, *args, **kwargs):
            lifetime = settings.PAGE_CACHE_TIMEOUT
            if live:
                lifetime = min(lifetime, settings.API_CACHE_LIVE_SECONDS)
            if lifetime <= 0 or request.method != "GET":
                return view(request, *args, **kwargs)
            address = _address_digest(request)
            generation = stored = None
            try:
                generation, stored = _lookup(address)
            except Exception as error:
                _warn_unavailable("read", error)
            if _is_answer(stored):
                return _replay(request, stored)
            leading = False
            if stored is None:
                leading, stored = _lead_or_wait(generation, address)
                if _is_answer(stored):
                    return _replay(request, stored)
            try:
                request.GET = query = _ReadParameters.watching(request.GET)
                response = view(request, *args, **kwargs)
                if not getattr(response, "is_rendered", True):
                    response.render()
                if query.unread():
                    # The answer is the same without them: kept under this address, it
                    # would be one more copy per value a client makes up.
                    return response
                if not _shareable_answer(request, response):
                    if stored is None:
                        _mark_unshared(generation, address)
                    return response
                return _store_answer(request, response, generation, address, max_age, lifetime)
            finally:
                if leading:
                    _done_building(generation, address)

        return serve

    return decorate if view is None else decorate(view)


class _ReadParameters(QueryDict):
    """``request.GET`` that notes which parameters the view looked at: an answer is kept
    only when the view read every parameter the request carried (any listing of them
    counts as reading them all). For API views, whose parameters the filters declare."""

    def __init__(self, query_string=None, mutable=False, encoding=None):
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

    def _all_read(self):
        self.read.update(dict.keys(self))

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)

    def _getlist(self, key, *args, **kwargs):
        self.read.add(key)
        return super()._getlist(key, *args, **kwargs)

    def __iter__(self):
        self._all_read()
        return super().__iter__()

    def keys(self):
        self._all_read()
        return super().keys()

    def lists(self):
        self._all_read()
        return super().lists()

    def __copy__(self):
        self._all_read()
        return super().__copy__()

    def __deepcopy__(self, memo):
        self._all_read()
        return super().__deepcopy__(memo)


def _store_answer(request, response, generation, address, max_age, lifetime):
    etag, last_modified = _validators(response)
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    if response.has_header("Cache-Control"):
        del response["Cache-Control"]
    patch_cache_control(
        response, public=True, max_age=max_age, s_maxage=settings.PAGE_CACHE_SHARED_MAX_AGE
    )
    return _keep_and_answer(
        request, response, (generation, address), (etag, last_modified), lifetime
    )
