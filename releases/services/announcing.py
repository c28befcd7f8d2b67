"""The announcement of a release in the foundation's news: written from what the catalogue
knows (date, series, maturity, the series' support; what it fixes where staff wrote notes;
links to the notes and the changelog) and labelled as generated, for every release the
catalogue import brings and for every release published without staff's own text."""

from datetime import UTC, datetime, time

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from foundation.models import Category, NewsPost
from releases.models import Release
from search import signals as search_signals

MATURITY_WORDS = {
    "preview": "preview",
    "alpha": "alpha",
    "beta": "beta",
    "rc": "release candidate",
    "ga": "stable",
}
CATEGORY = "Releases"
# Who the news lists as the author of an announcement nobody wrote.
GENERATED_BYLINE = "Generated from the release catalogue"
STAFF_BYLINE = "The MariaDB Foundation"


def announcement_slug(release: Release) -> str:
    return f"mariadb-{release.version.replace('.', '-')}-released"


def announcement_date(release: Release) -> datetime:
    """Noon UTC of the release date: the post is dated with the release."""
    return datetime.combine(release.release_date, time(12, 0), tzinfo=UTC)


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _support_sentence(series, release) -> str:
    """The series' support as it stood on the release's day: the announcement is dated with
    the release and says what was true then, whatever day it is read (or imported) on."""
    eol = series.eol_date
    if eol is None:
        return ""
    when = f"{eol:%-d %B %Y}"
    if eol < release.release_date:
        return f"It came after the end of life of {series} ({when})."
    if series.support_type == series.SupportType.UNANNOUNCED:
        return f"{series} is maintained until {when}."
    return f"{series} is a {series.get_support_type_display().lower()} series, maintained until {when}."


def announcement_draft(release: Release) -> dict:
    """The announcement's title, summary and Markdown body, labelled as generated from the
    catalogue: what staff start from, and what is published when they write nothing."""
    site = settings.SITE_URL.rstrip("/")
    release_url = site + release.get_absolute_url()
    series = release.series
    words = MATURITY_WORDS[release.maturity]
    context = {
        "release": release,
        "series": series,
        "maturity_words": f"{_article(words)} {words}",
        "is_first_stable": release.maturity == Release.Maturity.GA
        and series.first_release_date == release.release_date,
        "support": _support_sentence(series, release),
        "release_url": release_url,
        "notes_url": release_url + "#notes"
        if release.release_notes
        else release.kb_release_notes_url,
        "changelog_url": release_url + "#changelog"
        if release.changelog
        else release.kb_changelog_url,
        "series_url": site + series.get_absolute_url(),
        "feedback_url": site + "/feedback/",
        "generator_url": site + reverse("repoconfig:generator") + f"?version={series.version}",
        "byline": GENERATED_BYLINE,
    }
    return {
        "title": f"MariaDB {release.version} {words} released",
        "body": render_to_string("releases/announcement.md", context),
        "summary": (
            f"MariaDB {release.version}, {_article(words)} {words} release of {series}, "
            f"released on {release.release_date:%-d %B %Y}."
        ),
    }


def announce_from_catalogue(releases) -> int:
    """Give every published release in ``releases`` that has no announcement its generated
    post (a post already under its slug, e.g. staff's, is linked, never rewritten). Written
    in bulk (the catalogue holds hundreds of releases) and indexed for the site search.
    Returns how many posts were written."""
    releases = [r for r in releases if r.is_published and r.announcement_id is None]
    if not releases:
        return 0
    slugs = {announcement_slug(r): r for r in releases}
    existing = dict(NewsPost.objects.filter(slug__in=slugs).values_list("slug", "pk"))
    now = timezone.now()
    posts = []
    for slug, release in slugs.items():
        if slug in existing:
            continue
        draft = announcement_draft(release)
        published_at = min(announcement_date(release), now)
        posts.append(
            NewsPost(
                slug=slug,
                title=draft["title"],
                summary=draft["summary"],
                body=draft["body"],
                author_name=GENERATED_BYLINE,
                status=NewsPost.Status.PUBLISHED,
                published_at=published_at,
                created_at=published_at,
                updated_at=published_at,
            )
        )
    for post in posts:
        post.render_body()  # bulk_create does not call save()
    created = NewsPost.objects.bulk_create(posts)
    # auto_now fields are set on save; the posts say they were written on their date.
    NewsPost.objects.filter(pk__in=[p.pk for p in created]).unedited_since_publication()
    category, _ = Category.objects.get_or_create(
        slug=slugify(CATEGORY), defaults={"name": CATEGORY}
    )
    NewsPost.categories.through.objects.bulk_create(
        [NewsPost.categories.through(newspost_id=p.pk, category_id=category.pk) for p in created]
    )
    existing.update({p.slug: p.pk for p in created})
    for slug, release in slugs.items():
        release.announcement_id = existing[slug]
    Release.objects.bulk_update(list(slugs.values()), ["announcement"])
    search_signals.saved_in_bulk_many(NewsPost, [p.pk for p in created])
    return len(created)
