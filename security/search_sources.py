"""Advisories in the site search (registered from ``SecurityConfig.ready()``): a CVE id
finds its advisory."""

from search.models import SearchDocument
from search.sources import Entry, Source, register
from security.models import Advisory


def _describe(advisory):
    return Entry(
        title=f"{advisory.advisory_id}: {advisory.component}",
        url=advisory.get_absolute_url(),
        summary=f"{advisory.get_rating_display()} ({advisory.cvss_score}). {advisory.summary}",
        body=" ".join([*advisory.aliases, advisory.cwe, advisory.component]),
        date=advisory.published,
        exact_name=advisory.advisory_id,
    )


def register_sources() -> None:
    register(Source(Advisory, SearchDocument.Kind.ADVISORY, Advisory.objects.all, _describe))
