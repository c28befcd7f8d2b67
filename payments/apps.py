from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Payments"

    def ready(self):
        # Registers the deploy checks of this app (the test key, the test card path).
        from payments import checks  # noqa: F401
