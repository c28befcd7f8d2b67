from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "security"
    verbose_name = "Security advisories"

    def ready(self):
        from core import demo, navigation, pagecache
        from core import sitemaps as site_map
        from search import sources as search_index
        from security import search_sources, sitemaps

        pagecache.watch_app(self)
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query("security:advisories", "q", "series", "severity", "year", "page")
        pagecache.reads_query("security:affected", "version")
        # Advisories name releases: after the release catalogue.
        demo.register("security.demo", after="releases.demo")
        site_map.register("security", sitemaps.security_pages)
        site_map.register("advisories", sitemaps.AdvisorySitemap)
        search_index.register_pages(*sitemaps.search_pages)
        search_sources.register_sources()
        navigation.add("Security", "security:advisories", order=45)
