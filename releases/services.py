"""Release workflows: publishing a release and announcing it in the foundation's news."""

from datetime import UTC, datetime, time

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from foundation.services import publish_news_post
from releases.models import Release

MATURITY_WORDS = {"alpha": "alpha", "beta": "beta", "rc": "release candidate", "ga": "stable"}


def announcement_slug(release: Release) -> str:
    return f"mariadb-{release.version.replace('.', '-')}-released"


@transaction.atomic
def publish_release(release: Release) -> Release:
    """Publish a release and create or update its announcement (idempotent)."""
    release.is_published = True
    site = settings.SITE_URL.rstrip("/")
    context = {
        "release": release,
        "series": release.series,
        "release_url": site + release.get_absolute_url(),
        "series_url": site + release.series.get_absolute_url(),
        "feedback_url": site + "/feedback/",
        "generator_url": site
        + reverse("repoconfig:generator")
        + f"?version={release.series.version}",
    }
    body = render_to_string("releases/announcement.md", context)
    post = publish_news_post(
        slug=announcement_slug(release),
        title=f"MariaDB {release.version} {MATURITY_WORDS[release.maturity]} released",
        body=body,
        category="Releases",
        summary=(
            f"The project is pleased to announce the immediate availability of MariaDB "
            f"{release.version}, {'an' if release.maturity == 'alpha' else 'a'} {MATURITY_WORDS[release.maturity]} release."
        ),
        author_name="The MariaDB Foundation",
        published_at=datetime.combine(release.release_date, time(12, 0), tzinfo=UTC),
    )
    release.announcement = post
    release.save()
    return release
