from django.apps import AppConfig


class FeedbackConfig(AppConfig):
    name = "feedback"

    def ready(self):
        from core import demo, edge
        from feedback import checks  # noqa: F401 - registers the checks

        # No public page shows raw reports or servers: the usage pages read the rollups.
        demo.register("feedback.demo")
        # The plugin's endpoints (both of its addresses) are never pages.
        edge.keep_private("/rest/", "/feedback_plugin/")
