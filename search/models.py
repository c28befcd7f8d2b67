"""The search index: one denormalised row per public object of the site.

Rows are written by ``search.services`` from the objects ``search.sources`` describes;
nothing else writes them. ``vector`` holds the weighted full-text vector (title A,
summary B, body C) behind a GIN index.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone

# The PostgreSQL text search configuration for stemming and stop words: the site is in English.
TEXT_SEARCH_CONFIG = "english"
GIN_INDEX_NAME = "search_doc_vector_gin"


class SearchDocumentQuerySet(models.QuerySet):
    def visible(self, now=None):
        """Rows the public may find: those without a start time, or whose time has come."""
        return self.filter(
            models.Q(visible_from__isnull=True) | models.Q(visible_from__lte=now or timezone.now())
        )

    def fill_vectors(self) -> int:
        """Compute the weighted vector of these rows from their stored text (PostgreSQL)."""
        return self.update(vector=weighted_vector())


def weighted_vector():
    return (
        SearchVector("title", weight="A", config=TEXT_SEARCH_CONFIG)
        + SearchVector("summary", weight="B", config=TEXT_SEARCH_CONFIG)
        + SearchVector("body", weight="C", config=TEXT_SEARCH_CONFIG)
    )


class SearchDocument(models.Model):
    class Kind(models.TextChoices):
        NEWS = "news", "News"
        DOCUMENT = "document", "Governance documents"
        BOARD = "board", "Board members"
        MEETING = "meeting", "Board meetings"
        SERIES = "series", "Release series"
        RELEASE = "release", "Releases"
        BENCHMARK = "benchmark", "Benchmarks"
        ADVISORY = "advisory", "Security advisories"
        PAGE = "page", "Pages"

    key = models.CharField(
        max_length=100, unique=True, help_text="The source object, e.g. foundation.newspost:12"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    title = models.CharField(max_length=300)
    summary = models.TextField(blank=True)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=300)
    exact_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="A search for just this (a series or release number) finds this entry first.",
    )
    date = models.DateField(null=True, blank=True)
    visible_from = models.DateTimeField(
        null=True, blank=True, help_text="Hidden until then (a scheduled news post)."
    )
    # Filled by fill_vectors after each write (search.services).
    vector = SearchVectorField(null=True, editable=False)
    indexed_at = models.DateTimeField(auto_now=True)

    objects = SearchDocumentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "title"]
        indexes = [
            models.Index(fields=["kind"], name="search_doc_kind"),
            GinIndex(fields=["vector"], name=GIN_INDEX_NAME),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.title}"
