from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    verbose_name = "Site search"

    def ready(self):
        from core import demo, navigation, pagecache
        from search import signals

        pagecache.watch_app(self)  # the search results pages
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query("search:search", "q", "kind", "page")
        signals.connect(self)
        # Last: it indexes what the others created (some write in bulk, without signals).
        demo.register(signals.DEMO_LOADER, after=demo.EVERYTHING_ELSE)
        # The search box of every page, its stylesheet, and the 404 page's search.
        navigation.include(navigation.HEAD, "search/includes/head.html", order=10)
        navigation.include(navigation.HEADER, "search/includes/header_form.html", order=10)
        navigation.include(navigation.NOT_FOUND, "search/includes/not_found_form.html", order=10)
