from django.apps import AppConfig


class RepoconfigConfig(AppConfig):
    name = "releases.repoconfig"
    label = "repoconfig"
    verbose_name = "Repository configuration"

    def ready(self):
        from core import demo, pagecache

        pagecache.watch_app(self)
        demo.register("releases.repoconfig.demo", after="releases.demo")
