from django.apps import AppConfig


class InvoicingConfig(AppConfig):
    name = "invoicing"
    verbose_name = "Invoices and receipts"

    def ready(self) -> None:
        from core import edge, logredact
        from invoicing import mail
        from outbox import registry

        # A document's page is reached by a personal, signed link.
        edge.keep_private("/documents/")
        logredact.redact_after("/documents/")
        registry.register(mail.FRESH_LINK, mail.send_fresh_link)
