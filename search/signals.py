"""Model signals keep the index fresh: each save or delete of an indexed model (or of one
that changes an indexed object, see ``search.sources.DEPENDENTS``) rewrites its entry."""

from django.db.models.signals import post_delete, post_save

from search import services
from search.sources import DEPENDENTS, SOURCE_FOR


def _saved(sender, instance, raw=False, **kwargs):
    if not raw:  # fixtures load rows as they are; rebuild_search_index indexes them
        services.object_saved(instance)


def _deleted(sender, instance, **kwargs):
    services.object_deleted(instance)


def connect() -> None:
    for model in [*SOURCE_FOR, *DEPENDENTS]:
        uid = f"search:{model._meta.label_lower}"
        post_save.connect(_saved, sender=model, dispatch_uid=uid + ":save")
        post_delete.connect(_deleted, sender=model, dispatch_uid=uid + ":delete")
