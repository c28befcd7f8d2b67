from django.apps import AppConfig


class RepoconfigConfig(AppConfig):
    name = "releases.repoconfig"
    label = "repoconfig"
    verbose_name = "Repository configuration"

    def ready(self):
        from core import demo, navigation, pagecache

        pagecache.watch_app(self)
        # The query parameters its pages read (others are redirected away: core/pagecache.py).
        pagecache.reads_query(
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
        navigation.add_footer_link(
            "Software", "Repository configuration", "repoconfig:generator", order=31
        )
        navigation.add_home_highlight(
            "Repository setup",
            "APT, YUM and zypper configuration for your distribution",
            "repoconfig:generator",
            order=10,
        )
