from django.apps import AppConfig


class FeedbackConfig(AppConfig):
    name = "feedback"

    def ready(self):
        from core import demo
        from feedback import checks  # noqa: F401 - registers the checks

        # No public page shows raw reports or servers: the usage pages read the rollups.
        demo.register("feedback.demo")
