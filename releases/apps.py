import atexit

from django.apps import AppConfig


class ReleasesConfig(AppConfig):
    name = "releases"

    def ready(self):
        from core import demo, navigation, pagecache
        from core import sitemaps as site_map
        from outbox import registry
        from releases import compat, downloads, mail, search_sources, sitemaps
        from search import sources as search_index

        # A process that stops (a gunicorn worker) hands on the download counts it buffered.
        atexit.register(downloads.hand_over_counts)

        # No public page shows who subscribed to the announcements.
        pagecache.watch_app(self, except_for=("announcementsubscriber",))
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query(
            "releases:download", "series", "release", "os", "package", "arch", "mirror"
        )
        pagecache.reads_query("releases:release", "mirror")
        pagecache.reads_query("releases:series", "page")
        pagecache.reads_query("releases:subscribe", "sent")
        demo.register("releases.demo", after="foundation.demo")  # announces into the news
        site_map.register("download", sitemaps.download_pages)
        search_index.register_pages(*sitemaps.search_pages)
        site_map.register("series", sitemaps.SeriesSitemap)
        site_map.register("releases", sitemaps.ReleaseSitemap)
        search_sources.register_sources()
        # The download redirect, hottest of all and never stored, skips the middleware.
        pagecache.answer_early("releases:compat-download", compat.early_download)
        # The mariadb.org-compatible API, an API like those under /api/.
        pagecache.register_api_prefix("/rest-api/")
        navigation.add("Download", "releases:download", order=40)
        navigation.add_footer_link("Software", "Download MariaDB", "releases:download", order=30)
        navigation.add_home_action("Download MariaDB", "releases:download", order=10)
        navigation.include(
            navigation.HOME_COLUMNS, "releases/includes/home_releases.html", order=20
        )
        # The mails its services record in the outbox.
        registry.register(mail.SUBSCRIPTION_CONFIRMATION, mail.mail_subscription_confirmation)
        registry.register(mail.RELEASE_ANNOUNCEMENTS, mail.announce_release)
        registry.register(mail.RELEASE_ANNOUNCEMENT, mail.mail_release_announcement)
