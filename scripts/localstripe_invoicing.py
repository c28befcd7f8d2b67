"""localstripe, taught the invoices a sponsor pays by bank transfer, and to tell of
refunds (development only).

localstripe (1.15) makes invoices only for subscriptions and charges them at once. The
site's invoice path (sponsors/stripe_gateway.py ``send_invoice``) makes what Stripe calls
a one-off invoice with ``collection_method=send_invoice``: pending invoice items, an
invoice due in ``days_until_due`` days, then ``/finalize`` and ``/send``. This adds those
calls to localstripe's own Invoice, with Stripe's shapes and events (``invoice.created``,
``invoice.finalized``, ``invoice.sent``); everything else is localstripe unchanged.

localstripe makes refunds (``POST /v1/refunds`` with ``charge`` or ``payment_intent``) but
sends no event about them; Stripe sends ``charge.refunded`` with the charge, whose
``amount_refunded`` is the charge's refunded total. This sends it, so a refund made at
the fake reaches the site through its webhook as a real one does.

Run as localstripe is: ``python scripts/localstripe_invoicing.py --port N --from-scratch``
(the Procfile does). Stripe itself mails the invoice; the fake mails nothing.
"""

import time

from localstripe import resources
from localstripe.errors import UserError

Invoice = resources.Invoice
_create_for_subscription = Invoice._api_create.__func__
_pay_with_card = Invoice._api_pay_invoice
_computed_status = Invoice.status
DAY = 24 * 3600


def _status(invoice):
    return (
        "paid" if getattr(invoice, "_paid_out_of_band", False) else _computed_status.fget(invoice)
    )


def _pay(id, paid_out_of_band=None, **options):
    """Stripe's ``paid_out_of_band``: the invoice was paid outside Stripe (a bank transfer
    staff recorded); it is marked paid and ``invoice.paid`` is sent, as Stripe does."""
    if str(paid_out_of_band).lower() != "true":
        return _pay_with_card(id, **options)
    invoice = Invoice._api_retrieve(id)
    if invoice.status != "open":
        raise UserError(400, "Only an open invoice can be marked paid out of band")
    invoice._paid_out_of_band = True
    invoice.paid_out_of_band = True
    invoice.status_transitions["paid_at"] = int(time.time())
    resources.schedule_webhook(resources.Event("invoice.paid", invoice))
    return invoice


# The routes are made when the server module is imported: the pay route is swapped first.
resources.extra_apis[:] = [
    (method, url, _pay if url == "/v1/invoices/{id}/pay" else function)
    for method, url, function in resources.extra_apis
]
Invoice.status = property(_status)

from localstripe import server  # noqa: E402  (after the swap above)


def _one_off_invoice(
    cls,
    customer=None,
    subscription=None,
    collection_method=None,
    days_until_due=None,
    metadata=None,
    description=None,
    auto_advance=None,
    pending_invoice_items_behavior=None,
    **others,
):
    if subscription is not None or collection_method in (None, "charge_automatically"):
        return _create_for_subscription(
            cls,
            customer=customer,
            subscription=subscription,
            metadata=metadata,
            description=description,
            pending_invoice_items_behavior=pending_invoice_items_behavior,
            **others,
        )
    days = resources.try_convert_to_int(days_until_due)
    if collection_method != "send_invoice" or type(days) is not int or days < 0 or others:
        raise UserError(400, "Bad request")
    invoice = cls(customer=customer, metadata=metadata, description=description)
    if not invoice.lines._list:
        raise UserError(400, "Nothing to invoice: the customer has no pending invoice items")
    invoice.collection_method = "send_invoice"
    invoice.days_until_due = days
    invoice.due_date = int(time.time()) + days * DAY
    invoice.number = invoice.id.upper()[3:11] + "-0001"
    invoice.hosted_invoice_url = None
    invoice.invoice_pdf = None
    return invoice


def _finalize(id, **options):
    invoice = Invoice._api_retrieve(id)
    if invoice.status != "draft":
        raise UserError(400, "This invoice is already finalized")
    invoice._finalize()
    resources.schedule_webhook(resources.Event("invoice.finalized", invoice))
    return invoice


def _send(id, **options):
    invoice = Invoice._api_retrieve(id)
    if getattr(invoice, "collection_method", "") != "send_invoice":
        raise UserError(400, "Only invoices with collection_method=send_invoice can be sent")
    if invoice.status == "draft":
        _finalize(id)
    resources.schedule_webhook(resources.Event("invoice.sent", invoice))
    return invoice


_create_refund = resources.Refund._api_create.__func__


def _refund_and_tell(cls, **data):
    refund = _create_refund(cls, **data)
    charge = resources.Charge._api_retrieve(refund.charge)
    resources.schedule_webhook(resources.Event("charge.refunded", charge))
    return refund


def install():
    Invoice._api_create = classmethod(_one_off_invoice)
    resources.Refund._api_create = classmethod(_refund_and_tell)
    for url, function in (
        ("/v1/invoices/{id}/finalize", _finalize),
        ("/v1/invoices/{id}/send", _send),
    ):
        server.app.router.add_post(url, server.api_extra(function, url))


if __name__ == "__main__":
    install()
    server.start()
