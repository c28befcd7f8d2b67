from collections import defaultdict
from datetime import UTC, datetime, time

from django.contrib.syndication.views import Feed
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods
from django.views.generic import TemplateView
from django_ratelimit.decorators import ratelimit

from core import numbers
from core.client import client_address
from core.geo import country_of
from core.hostile import bad_request
from releases import calendars
from releases.forms import DownloadChoice, Note, SubscribeForm, quoted
from releases.models import (
    DownloadCount,
    Release,
    ReleaseFile,
    Series,
)
from releases.repoconfig.models import Availability, Mirror
from releases.services import mirroring, subscriptions

MIRROR_COOKIE = "mirror"
MIRROR_COOKIE_AGE = 365 * 24 * 3600


def _mirror(request):
    """The usable mirrors (healthy and fresh), closest to the visitor's country first, and
    the visitor's: ?mirror= (remembered in a cookie), else the cookie, else the closest.
    Any junk in either is ignored (compared in Python). The address is only looked up."""
    mirrors = list(Mirror.objects.for_country(country_of(client_address(request))))
    chosen = mirroring.choose_mirror(mirrors, request.GET.get("mirror"))
    if chosen is None or chosen.mirror_id != request.GET.get("mirror"):
        chosen = mirroring.choose_mirror(mirrors, request.COOKIES.get(MIRROR_COOKIE))
    return mirrors, chosen


def fallback_key(mirror):
    """The order of Mirror.objects.for_country(None), for mirrors already loaded."""
    return (mirror.fallback_order, mirror.country, mirror.name)


class MirrorChoiceMixin:
    """Remember a mirror picked with ?mirror= across pages; a page built from the cookie
    is this visitor's own, never shared by the page cache."""

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        mirror = context.get("mirror")
        if mirror and self.request.GET.get("mirror") == mirror.mirror_id:
            response.set_cookie(
                MIRROR_COOKIE,
                mirror.mirror_id,
                max_age=MIRROR_COOKIE_AGE,
                samesite="Lax",
                secure=self.request.is_secure(),
                httponly=True,
            )
        elif MIRROR_COOKIE in self.request.COOKIES or (
            mirror and mirror != min(context["mirrors"], key=fallback_key)
        ):
            # Built for this visitor (their cookie or their country): never shared.
            patch_cache_control(response, private=True)
        patch_vary_headers(response, ["Cookie"])
        return response


RELEASES_PER_PAGE = 25
DOWNLOAD_ROWS = 20


def published_after_eol(release):
    """A fix published after its series' community end of life (extended support)."""
    eol = release.series.eol_date if release else None
    return bool(eol and release.release_date > eol)


def split_supported(series_list, today):
    """(supported, previews, end of life): a series without a stable release is a preview,
    never "supported", however far off its end of life."""
    current = [s for s in series_list if not s.is_eol(today)]
    return (
        [s for s in current if s.has_ga],
        [s for s in current if not s.has_ga],
        [s for s in series_list if s.is_eol(today)],
    )


def newest_first(queryset):
    return sorted(queryset, key=lambda s: s.sort_key, reverse=True)


class DownloadView(MirrorChoiceMixin, TemplateView):
    """/download/: pick a series, a release, an OS and a package, and a mirror. Only what has
    a file is offered (releases.forms.DownloadChoice)."""

    template_name = "releases/download.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        today = timezone.localdate()
        get = self.request.GET
        series_list = newest_first(
            Series.objects.with_release_facts().filter(published_count__gt=0)
        )
        releases = list(Release.objects.published().by_version().select_related("series"))
        platforms = defaultdict(set)
        for release_id, *platform in (
            ReleaseFile.objects.filter(release__is_published=True)
            .values_list("release_id", "os", "architecture", "package_type")
            .distinct()
        ):
            platforms[release_id].add(tuple(platform))
        choice = DownloadChoice(get, series_list, releases, platforms, today)
        mirrors, mirror = _mirror(self.request)
        notes = choice.notes
        if get.get("mirror") and mirror and mirror.mirror_id != get["mirror"]:
            notes.append(
                Note(
                    f"“{quoted(get['mirror'])}” is not a mirror that is answering: "
                    f"downloads come from {mirror.name} ({mirror.country}) instead."
                )
            )
        supported, previews, end_of_life = split_supported(choice.series_list, today)
        context.update(
            series_list=choice.series_list,
            supported_series=supported,
            preview_series=previews,
            eol_series=end_of_life,
            arch_choices=choice.arch_choices,
            arch_choice=choice.arch,
            ignored=notes,
            after_eol=published_after_eol(choice.release),
            chosen_series=choice.series,
            releases=list(choice.by_series[choice.series.pk]) if choice.series else [],
            chosen_release=choice.release,
            has_files=True,
            files=list(choice.files()) if choice.release else [],
            os_choices=choice.os_choices,
            package_choices=choice.package_choices,
            os_choice=choice.os,
            package_choice=choice.package,
            offer=choice.offer(),
            files_on_their_way=[r for r in releases if r.files_pending],
            mirrors=mirrors,
            mirror=mirror,
            today=today,
        )
        return context


class SeriesIndexView(TemplateView):
    """/download/series/: every series, the supported ones first, then those past end of life."""

    template_name = "releases/series_index.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        today = timezone.localdate()
        supported, previews, end_of_life = split_supported(
            newest_first(Series.objects.with_release_facts()), today
        )
        context.update(supported=supported, previews=previews, end_of_life=end_of_life, today=today)
        return context


class SeriesView(TemplateView):
    template_name = "releases/series.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        series = get_object_or_404(
            Series.objects.with_release_facts().annotate(
                has_repositories=Exists(Availability.objects.filter(series=OuterRef("pk")))
            ),
            version=kwargs["series"],
        )
        today = timezone.localdate()
        paginator = Paginator(series.releases.published().by_version(), RELEASES_PER_PAGE)
        paginator.count = series.published_count  # counted with the series: no COUNT query
        page = paginator.get_page(numbers.page_number(self.request.GET))
        context.update(
            series=series,
            releases=page.object_list,
            page_obj=page,
            paginator=paginator,
            is_paginated=page.has_other_pages(),
            is_eol=series.is_eol(today),
            # Only the newest releases wait for files: they are on the first page.
            files_pending=[r for r in page.object_list if r.files_pending],
            downloads=list(
                DownloadCount.objects.filter(release__series=series).per_release()[:DOWNLOAD_ROWS]
            ),
        )
        return context


class ReleaseView(MirrorChoiceMixin, TemplateView):
    template_name = "releases/release.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        release = get_object_or_404(
            Release.objects.published()
            .select_related("series", "announcement")
            .prefetch_related("files"),
            series__version=kwargs["series"],
            version=kwargs["version"],
        )
        mirrors, mirror = _mirror(self.request)
        context.update(
            release=release,
            series=release.series,
            files=list(release.files.all()),
            mirrors=mirrors,
            mirror=mirror,
            is_eol=release.series.is_eol(timezone.localdate()),
            after_eol=published_after_eol(release),
        )
        return context


class ReleaseFeed(Feed):
    feed_type = Atom1Feed
    title = "MariaDB releases"
    link = "/download/"
    subtitle = "New MariaDB Server releases published by the foundation."

    def items(self):
        return Release.objects.published().select_related("series").order_by("-release_date")[:30]

    def item_title(self, item):
        title = f"MariaDB {item.version} ({item.get_maturity_display()})"
        return f"{title}: files on their way" if item.files_pending else title

    def item_description(self, item):
        about = f"MariaDB {item.version}, a {item.get_maturity_display().lower()} release of {item.series}."
        return f"{about} {item.files_note}" if item.files_pending else about

    def item_pubdate(self, item):
        return datetime.combine(item.release_date, time(12, 0), tzinfo=UTC)

    def item_updateddate(self, item):
        return self.item_pubdate(item)


class SeriesReleaseFeed(ReleaseFeed):
    """/download/<series>/feed/: the releases of one series."""

    def get_object(self, request, series):
        return get_object_or_404(Series, version=series)

    def title(self, obj):
        return f"{obj} releases"

    def link(self, obj):
        return obj.get_absolute_url()

    def subtitle(self, obj):
        return f"New releases of {obj}, newest first."

    def items(self, obj):
        return (
            obj.releases.published()
            .select_related("series")
            .order_by("-release_date", "-version_major", "-version_minor", "-version_patch")[:30]
        )


@require_GET
def end_of_life_calendar(request):
    """/download/end-of-life.ics: every series' community end of life as an all-day event."""
    site = request.build_absolute_uri("/").rstrip("/")
    series = Series.objects.exclude(eol_date=None)
    body = calendars.end_of_life_calendar(
        series,
        site=site,
        host=request.get_host().partition(":")[0],
        # The same stamp all day, so the calendar's ETag holds while the series do not change.
        now=timezone.now().replace(hour=0, minute=0, second=0, microsecond=0),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="mariadb-end-of-life.ics"'
    patch_cache_control(response, public=True, max_age=3600)
    return response


SUBSCRIBE_RATE = "5/m"


@ratelimit(key="ip", rate=SUBSCRIBE_RATE, method="POST", block=True)
def subscribe(request):
    """Ask for the release announcements by mail. Whatever the address, a valid one gets the
    same answer, so the form does not tell who is subscribed."""
    form = SubscribeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        subscriptions.subscribe_to_announcements(form.cleaned_data["email"])
        return redirect(reverse("releases:subscribe") + "?sent=1")
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "sent": request.method == "GET" and "sent" in request.GET}
    return render(request, "releases/subscribe.html", context, status=status)


SUBSCRIPTION_LINK_INVALID = {
    "confirm": "this confirmation link is not valid or has expired: please subscribe again.",
    "unsubscribe": "the unsubscribe link is not valid (was it copied whole?).",
}


@never_cache
@require_http_methods(["GET", "POST"])
def confirm_subscription(request, token):
    """A link in a mail only asks; the button posts. Mail scanners follow links, so a GET
    that acted would confirm an address its owner never saw."""
    if request.method == "GET":
        valid = subscriptions.is_confirmation_link(token)
    else:
        valid = subscriptions.confirm_subscription(token) is not None
    if not valid:
        return bad_request(request, SUBSCRIPTION_LINK_INVALID["confirm"])
    if request.method == "GET":
        return render(request, "releases/subscription_ask.html", {"step": "confirm"})
    return render(request, "releases/subscription_done.html", {"confirmed": True})


# RFC 8058 one-click unsubscribe: mail providers post to the List-Unsubscribe address with
# no form and no cookie; the signed token in the address is what authorises the request.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    if request.method == "GET":
        valid = subscriptions.is_unsubscribe_link(token)
    else:
        valid = subscriptions.unsubscribe(token)
    if not valid:
        return bad_request(request, SUBSCRIPTION_LINK_INVALID["unsubscribe"])
    if request.method == "GET":
        return render(request, "releases/subscription_ask.html", {"step": "unsubscribe"})
    return render(request, "releases/subscription_done.html", {"confirmed": False})
