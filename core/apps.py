from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Site"

    def ready(self):
        from core import checks  # noqa: F401 - registers the deployment checks
        from core.sites import sync_current_site

        post_migrate.connect(sync_current_site, sender=self, dispatch_uid="core.sync_current_site")
