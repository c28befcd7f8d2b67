from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Site"

    def ready(self):
        from core import pagecache

        pagecache.connect_signals()
