from django.apps import AppConfig

EDGE_PURGE = "edge.purge"


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = "Outbox (side effects after a commit)"

    def ready(self):
        from core import edge
        from outbox import queue, registry

        # Purging the edge (nginx's cache) after a change to what public pages show is a
        # side effect like a mail: recorded in the change's transaction, delivered after
        # it commits, retried until every nginx dropped the keys (core/edge.py).
        registry.register(EDGE_PURGE, edge.purge_noted)
        edge.announce_changes_with(lambda: queue.enqueue(EDGE_PURGE))
