from django.apps import AppConfig


class ReleasesConfig(AppConfig):
    name = "releases"

    def ready(self):
        from core import demo, pagecache
        from core import sitemaps as site_map
        from releases import search_sources, sitemaps

        # No public page shows who subscribed to the announcements.
        pagecache.watch_app(self, except_for=("announcementsubscriber",))
        demo.register("releases.demo", after="foundation.demo")  # announces into the news
        site_map.register("download", sitemaps.download_pages)
        site_map.register("series", sitemaps.SeriesSitemap)
        site_map.register("releases", sitemaps.ReleaseSitemap)
        search_sources.register_sources()
