from django.apps import AppConfig


class RepoconfigConfig(AppConfig):
    name = "releases.repoconfig"
    label = "repoconfig"
    verbose_name = "Repository configuration"

    def ready(self):
        from core import demo, edge

        edge.watch_app(self)
        # The query parameters its pages read (others are redirected away: core/edge.py).
        edge.reads_query(
            "repoconfig:generator",
            "distro",
            "release",
            "version",
            "mirror",
            "arch",
            "format",
            "download",
        )
        demo.register("releases.repoconfig.demo", after="releases.demo")
