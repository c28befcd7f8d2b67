from django.apps import AppConfig


class FoundationConfig(AppConfig):
    name = "foundation"

    def ready(self):
        from core import demo, navigation, pagecache
        from core import sitemaps as site_map
        from foundation import mail, search_sources, sitemaps
        from foundation.models import NewsPost
        from outbox import registry
        from search import sources as search_index

        pagecache.watch_app(self, except_for=("contactmessage",))
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query("foundation:news-list", "page")
        pagecache.reads_query("foundation:news-category", "page")
        pagecache.reads_query("foundation:news-tag", "page")
        pagecache.reads_query("foundation:document-diff", "from")
        pagecache.reads_query("foundation:contact", "topic")
        # A scheduled post appears without a save: cached pages expire at its time.
        pagecache.register_scheduled_change(NewsPost.objects.next_publication)
        demo.register("foundation.demo")
        site_map.register("pages", sitemaps.foundation_pages)
        search_index.register_pages(*sitemaps.search_pages)
        site_map.register("news", sitemaps.NewsSitemap)
        site_map.register("governance", sitemaps.DocumentSitemap)
        site_map.register("meetings", sitemaps.MeetingSitemap)
        search_sources.register_sources()
        navigation.add("Foundation", "foundation:about", order=10)
        navigation.add("News", "foundation:news-list", order=20)
        navigation.set_contact_page("foundation:contact")
        for order, (label, url_name) in enumerate(
            [
                ("About", "foundation:about"),
                ("Board", "foundation:board"),
                ("Staff", "foundation:staff"),
                ("Governance", "foundation:governance"),
                ("Contact", "foundation:contact"),
            ],
            start=10,
        ):
            navigation.add_footer_link("Foundation", label, url_name, order=order)
        navigation.add_footer_link(
            "This site", "News feed (Atom)", "foundation:news-feed", order=40
        )
        navigation.include(
            navigation.HOME_HEAD, "foundation/includes/news_feed_link.html", order=10
        )
        navigation.include(navigation.HOME_COLUMNS, "foundation/includes/home_news.html", order=10)
        # The mail its services record in the outbox.
        registry.register(mail.CONTACT_MESSAGE, mail.mail_contact_message_to_staff)
        registry.register(mail.CONTACT_ACKNOWLEDGEMENT, mail.mail_contact_acknowledgement)
