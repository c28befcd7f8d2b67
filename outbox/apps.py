from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "outbox"
    verbose_name = "Outbox (side effects after a commit)"

    def ready(self):
        from outbox import files, registry

        # Files deleted after the commit that stops using them (outbox/files.py).
        registry.register(files.DELETE_FILE, files.delete_file)
