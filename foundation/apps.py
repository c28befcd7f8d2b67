from django.apps import AppConfig


class FoundationConfig(AppConfig):
    name = "foundation"

    def ready(self):
        from core import pagecache
        from foundation.models import NewsPost

        # A scheduled post appears without a save: cached pages expire at its time.
        pagecache.register_scheduled_change(NewsPost.objects.next_publication)
