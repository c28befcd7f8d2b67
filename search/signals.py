"""Model signals keep the index fresh: each save or delete of an indexed model (or of one
that changes an indexed object, see ``search.sources.DEPENDENTS``) rewrites its entry.

The receivers listen to every model and look the sender up in the registry, so a source
an app registers after the search app's own ``ready()`` is kept fresh too."""

from django.db.models.signals import post_delete, post_migrate, post_save

from core import demo
from search import services
from search.sources import DEPENDENTS, SOURCE_FOR

DEMO_LOADER = "search.demo"


def _indexed(model) -> bool:
    return model in SOURCE_FOR or model in DEPENDENTS


def _rebuilt_later() -> bool:
    """A demo load that ends with the index rebuilt from everything (search.demo)."""
    return demo.will_run(DEMO_LOADER)


def _saved(sender, instance, raw=False, **kwargs):
    # Fixtures load rows as they are, and rebuilds index them.
    if not raw and _indexed(sender) and not _rebuilt_later():
        services.object_saved(instance)


def _deleted(sender, instance, **kwargs):
    if _indexed(sender) and not _rebuilt_later():
        services.object_deleted(instance)


def _migrated(sender, using="default", **kwargs):
    # Every deploy migrates: the fixed pages' entries follow their descriptions.
    if using == "default":
        services.sync_pages()


def saved_in_bulk(instance) -> None:
    """Rows written with bulk_create send no post_save: their writer calls this once, with
    one of them, when the rows all change the same entry (a suite's runs)."""
    _saved(type(instance), instance)


def connect(app_config) -> None:
    post_save.connect(_saved, dispatch_uid="search:save")
    post_delete.connect(_deleted, dispatch_uid="search:delete")
    post_migrate.connect(_migrated, sender=app_config, dispatch_uid="search:pages")


def saved_in_bulk_many(model, pks) -> None:
    """Rows of an indexed model written with bulk_create, each its own entry (a catalogue
    import's announcements): indexed in one go."""
    if _indexed(model) and not _rebuilt_later():
        services.index_many(model, pks)
