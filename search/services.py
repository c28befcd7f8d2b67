"""Keeping the search index in step with the site: one object at a time (from the model
signals) or everything at once (``rebuild_search_index``, the end of ``load_demo``), the
fixed pages (``search.sources.PAGES``) included."""

from collections.abc import Callable, Iterable

from django.db import transaction
from django.db.models import Model

from core import edge
from search.models import SearchDocument
from search.sources import DEPENDENTS, PAGES, SOURCE_FOR, SOURCES, Source, object_key

REBUILD_BATCH = 500


def object_saved(instance: Model) -> None:
    """Bring the index up to date after ``instance`` was saved."""
    if type(instance) in DEPENDENTS:
        model, pk = DEPENDENTS[type(instance)](instance)
        reindex(SOURCE_FOR[model], pk)
    elif type(instance) in SOURCE_FOR:
        reindex(SOURCE_FOR[type(instance)], instance.pk)


def object_deleted(instance: Model) -> None:
    """Drop ``instance`` from the index, or refresh the entry it belonged to."""
    if type(instance) in DEPENDENTS:
        model, pk = DEPENDENTS[type(instance)](instance)
        reindex(SOURCE_FOR[model], pk)
    elif type(instance) in SOURCE_FOR:
        SearchDocument.objects.filter(key=object_key(type(instance), instance.pk)).delete()


def reindex(source: Source, pk: object) -> SearchDocument | None:
    """Write the entry of one object, or remove it when the public may no longer see it."""
    key = object_key(source.model, pk)
    obj = source.public().filter(pk=pk).first()
    # One transaction: the page cache discards its pages when it commits, so no page is
    # built from a row whose vector is not filled yet.
    with transaction.atomic():
        if obj is None:
            SearchDocument.objects.filter(key=key).delete()
            return None
        fresh = source.document(obj)
        document, _ = SearchDocument.objects.update_or_create(
            key=key,
            defaults={
                field: getattr(fresh, field)
                for field in (
                    "kind",
                    "title",
                    "summary",
                    "body",
                    "url",
                    "date",
                    "visible_from",
                    "exact_name",
                )
            },
        )
        SearchDocument.objects.filter(pk=document.pk).fill_vectors()
    return document


def index_many(model: type[Model], pks: Iterable[object]) -> int:
    """Write the entries of many objects of one indexed model at once (rows written in bulk
    send no post_save); returns how many are public and indexed."""
    source = SOURCE_FOR[model]
    keys = [object_key(model, pk) for pk in pks]
    documents = [
        source.document(obj)
        for obj in source.public().filter(pk__in=pks).iterator(chunk_size=REBUILD_BATCH)
    ]
    with transaction.atomic():
        SearchDocument.objects.filter(key__in=keys).delete()
        SearchDocument.objects.bulk_create(documents, batch_size=REBUILD_BATCH)
        SearchDocument.objects.filter(key__in=keys).fill_vectors()
    return len(documents)


def rebuild(progress: Callable[[str], None] = lambda message: None) -> int:
    """Index every public object afresh; returns the number of entries."""
    total = 0
    with transaction.atomic():
        SearchDocument.objects.all().delete()
        for source in SOURCES:
            documents = [
                source.document(obj) for obj in source.public().iterator(chunk_size=REBUILD_BATCH)
            ]
            SearchDocument.objects.bulk_create(documents, batch_size=REBUILD_BATCH)
            total += len(documents)
            progress(f"{source.kind}: {len(documents)} entries")
        pages = sync_pages()
        total += pages
        progress(f"{SearchDocument.Kind.PAGE}: {pages} entries")
        SearchDocument.objects.fill_vectors()
        # Bulk writes send no model signals: cached pages must go explicitly.
        transaction.on_commit(edge.content_changed)
    return total


def sync_pages() -> int:
    """Write the entries of the fixed pages (``search.sources.PAGES``) and drop those of
    pages no longer described; run by every ``migrate`` (post_migrate) and by ``rebuild``,
    so a deploy brings them up to date. Returns the number of pages."""
    with transaction.atomic():
        documents = [page.document() for page in PAGES.values()]
        pages = SearchDocument.objects.filter(kind=SearchDocument.Kind.PAGE)
        pages.exclude(key__in=[d.key for d in documents]).delete()
        for fresh in documents:
            SearchDocument.objects.update_or_create(
                key=fresh.key,
                defaults={
                    field: getattr(fresh, field)
                    for field in ("kind", "title", "summary", "body", "url")
                },
            )
        pages.fill_vectors()
        transaction.on_commit(edge.content_changed)
    return len(documents)
