from collections.abc import Callable

from django.apps import AppConfig

EDGE_PURGE = "edge.purge"


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = "Outbox (side effects after a commit)"

    def ready(self) -> None:
        from core import edge
        from outbox import files, queue, registry

        # Purging the edge (nginx's cache) after a change to what public pages show is a
        # side effect like a mail: recorded in the change's transaction, delivered after
        # it commits, retried until every nginx dropped the keys (core/edge.py).
        registry.register(EDGE_PURGE, edge.purge_noted)

        def announce_purge(changes: list[str] | None) -> Callable[[list[str]], None]:
            """Record a purge of the pages that show ``changes`` (None: every page);
            return how to narrow it to what changed before it is delivered."""
            item = queue.enqueue(EDGE_PURGE, changes=changes)
            return lambda narrowed: queue.replace_payload(item, changes=narrowed)

        edge.announce_changes_with(announce_purge)
        # Files deleted after the commit that stops using them (outbox/files.py).
        registry.register(files.DELETE_FILE, files.delete_file)
