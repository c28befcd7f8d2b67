from django.apps import AppConfig


class TrendsConfig(AppConfig):
    name = "feedback.trends"
    label = "trends"
    verbose_name = "Usage trends"

    def ready(self):
        from core import demo, navigation, pagecache
        from core import sitemaps as site_map
        from feedback.trends import sitemaps
        from search import sources as search_index

        # Rollups change only in bulk, with their RollupState saved in the same transaction.
        pagecache.watch_app(self, except_for=("rollup",))
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query("trends:dashboard", "period", "window")
        demo.register("feedback.trends.demo", after=("feedback.demo", "releases.demo"))
        site_map.register("usage", sitemaps.trends_pages)
        search_index.register_pages(*sitemaps.search_pages)
        navigation.add("Usage statistics", "trends:dashboard", order=50)
        navigation.add_footer_link("Software", "Usage statistics", "trends:dashboard", order=32)
        navigation.add_footer_link(
            "This site", "Privacy of usage reports", "trends:privacy", order=42
        )
        navigation.add_home_highlight(
            "Usage statistics",
            "Trends from servers that send anonymous feedback",
            "trends:dashboard",
            order=20,
        )
