from django.apps import AppConfig, apps
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Site"

    def ready(self) -> None:
        from core import (
            checks,  # noqa: F401 - registers the deployment checks
            edge,
            navigation,
            pagecache,
            reads,
            sitemaps,
        )
        from core.sites import sync_current_site

        # After the sites app's own receiver, which creates "example.com".
        post_migrate.connect(
            sync_current_site, sender=apps.get_app_config("sites"), dispatch_uid="core.sync_site"
        )
        pagecache.connect_signals()
        # What pages read and changes wrote, table by table: a purge drops only the pages
        # that read what changed (core.edge).
        connection_created.connect(reads.install, dispatch_uid="core.reads")
        edge.watch_app(self)  # display names, shown with comments
        sitemaps.register("site", sitemaps.core_pages)
        navigation.add_footer_link("This site", "Accessibility", "accessibility", order=41)
        navigation.add_footer_link("This site", "API schema", "api-schema", order=43)
