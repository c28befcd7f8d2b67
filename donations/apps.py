from django.apps import AppConfig


class DonationsConfig(AppConfig):
    name = "donations"
    verbose_name = "Donations and funding"

    def ready(self):
        from core import pagecache
        from core import sitemaps as site_map
        from donations import sitemaps

        # The donor wall shows a donation's public name: a donor who leaves it must leave
        # the cached funding page too.
        pagecache.watch_app(self, except_for=("donationstripeevent",))
        site_map.register("donations", sitemaps.donation_pages)
