"""Donation tasks. The mail tasks live with the mail they send (``notifications``); they
are imported here so that a Celery worker, which discovers ``<app>.tasks``, registers them."""

from donations.notifications import send_manage_links, send_payment_failed, send_receipt

__all__ = ["send_manage_links", "send_payment_failed", "send_receipt"]
