from django.apps import AppConfig


class BenefitsConfig(AppConfig):
    name = "sponsors.benefits"
    label = "benefits"
    verbose_name = "Sponsor benefits"

    def ready(self):
        from core import pagecache

        pagecache.watch_app(self)
