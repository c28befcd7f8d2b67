from django.apps import AppConfig


class TrendsConfig(AppConfig):
    name = "feedback.trends"
    label = "trends"
    verbose_name = "Usage trends"
