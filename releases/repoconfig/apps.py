from django.apps import AppConfig


class RepoconfigConfig(AppConfig):
    name = "releases.repoconfig"
    label = "repoconfig"
    verbose_name = "Repository configuration"
