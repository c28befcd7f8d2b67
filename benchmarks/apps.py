from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    name = "benchmarks"

    def ready(self):
        from benchmarks import shortcodes  # noqa: F401 - registers [[benchmark-chart ...]]
