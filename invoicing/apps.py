from django.apps import AppConfig


class InvoicingConfig(AppConfig):
    name = "invoicing"
    verbose_name = "Invoices and receipts"

    def ready(self):
        from core import logredact, pagecache

        # A document's page is reached by a personal, signed link.
        pagecache.keep_private("/documents/")
        logredact.redact_after("/documents/")
