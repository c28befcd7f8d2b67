from django.apps import AppConfig

EDGE_PURGE = "edge.purge"


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = "Outbox (side effects after a commit)"

    def ready(self):
        from core import edge
        from outbox import files, queue, registry

        # Purging the edge (nginx's cache) after a change to what public pages show is a
        # side effect like a mail: recorded in the change's transaction, delivered after
        # it commits, retried until every nginx dropped the keys (core/edge.py).
        registry.register(EDGE_PURGE, edge.purge_noted)
        edge.announce_changes_with(lambda: queue.enqueue(EDGE_PURGE))
        # Files deleted after the commit that stops using them (outbox/files.py).
        registry.register(files.DELETE_FILE, files.delete_file)
