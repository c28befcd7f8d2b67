from django.apps import AppConfig


class SponsorsConfig(AppConfig):
    name = "sponsors"

    def ready(self):
        from core import demo, pagecache
        from core import sitemaps as site_map
        from sponsors import sitemaps

        pagecache.watch_app(self, except_for=("sponsorshipevent", "stripeevent", "invitation"))
        demo.register("sponsors.demo", after="foundation.demo")
        site_map.register("sponsors", sitemaps.sponsor_pages)
