from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Site search"

    def ready(self):
        from search import signals

        signals.connect()
