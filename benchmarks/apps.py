from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    name = "benchmarks"

    def ready(self):
        from benchmarks import (
            mail,
            search_sources,
            shortcodes,  # noqa: F401 - registers [[benchmark-chart ...]]
            sitemaps,
        )
        from core import demo, navigation, pagecache
        from core import sitemaps as site_map
        from outbox import registry
        from search import sources as search_index

        registry.register(mail.REVIEW_MAIL, mail.send_review_mail)

        pagecache.watch_app(self)
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query("benchmarks:suite", "x")
        pagecache.reads_query("benchmarks:chart", "x")
        pagecache.reads_query("benchmarks:chart-svg", "x")
        pagecache.reads_query("benchmarks:chart-png", "x")
        pagecache.reads_query("benchmarks:compare", "a", "b", "x")
        demo.register("benchmarks.demo", after="foundation.demo")
        site_map.register("benchmarks", sitemaps.benchmark_pages)
        search_index.register_pages(*sitemaps.search_pages)
        site_map.register("suites", sitemaps.SuiteSitemap)
        search_sources.register_sources()
        navigation.add("Benchmarks", "benchmarks:index", order=60)
        navigation.add_footer_link("Software", "Benchmarks", "benchmarks:index", order=33)
        navigation.add_account_link("My benchmarks", "benchmarks:account", order=30)
        navigation.add_home_highlight(
            "Benchmarks", "Published results with their raw data", "benchmarks:index", order=30
        )
        navigation.include(navigation.PROFILE, "benchmarks/includes/profile_section.html", order=10)
