"""The sponsors' mail; texts are in templates/sponsors/email/.

Services record each mail in the outbox (``outbox.queue``), which calls these functions
directly after the commit and again until the mail server accepts it."""

from django.conf import settings
from django.urls import reverse

from core.mail import send_templated_mail
from invoicing.links import public_pdf_url, public_url
from invoicing.models import IssuedDocument
from payments.money import from_minor_units
from sponsors import documents
from sponsors.models import Invitation, PaidTerm, Payment, Sponsorship

# The outbox kinds of these mails (registered in SponsorsConfig.ready()).
STATUS_MAIL = "sponsors.status_mail"
RENEWAL_REMINDER = "sponsors.renewal_reminder"
INVITATION = "sponsors.invitation"
PAYMENT_RECEIVED = "sponsors.payment_received"
MONEY_RETURNED = "sponsors.money_returned"  # to staff: a refund or dispute of a term's payment

STATUS_MAILS = (
    "applied",  # the application was received
    "approved",
    "awaiting_payment",
    "active",
    "rejected",
    "expiring",
    "lapsed",
    "cancelled",
    "withdrawn",  # an application cancelled with nothing paid, as the site calls it
    "withdrawal_undone",
    "cancellation_undone",
    "payment_failed",
    "renewal_stopped",
    "renewal_resumed",
    "term_ended",  # the payment of its running term went back in full
)


def recipients(sponsorship) -> list[str]:
    """The organisation's billing contact and managers: who hears about its sponsorship."""
    organisation = sponsorship.organisation
    return sorted(
        {organisation.billing_email, *organisation.managers.values_list("email", flat=True)} - {""}
    )


def _context(sponsorship, **extra):
    return {
        "sponsorship": sponsorship,
        "organisation": sponsorship.organisation,
        "dashboard_url": settings.SITE_URL + reverse("sponsors:dashboard"),
        **extra,
    }


def send_sponsorship_mail(
    sponsorship_id: int, what: str, undo: bool = False, paid_term_id: int | None = None
):
    """``undo``: the sponsor may undo this for SPONSORSHIP_UNDO_MINUTES (their own
    withdrawal or cancellation), so the mail says so, as the page does. ``paid_term_id``:
    the term a "term_ended" mail is about."""
    if what not in STATUS_MAILS:
        return
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    ended = None
    if paid_term_id is not None:
        ended = PaidTerm.objects.select_related("payment").filter(pk=paid_term_id).first()
    context = _context(
        sponsorship,
        what=what,
        undo_minutes=settings.SPONSORSHIP_UNDO_MINUTES,
        undo=undo,
        organisation_url=settings.SITE_URL + sponsorship.organisation.get_absolute_url(),
        ended=ended,
        programmes_url=settings.SITE_URL + reverse("sponsors:programmes"),
    )
    send_templated_mail(
        "sponsors/email/status",
        context,
        recipients(sponsorship),
    )


def send_renewal_reminder(sponsorship_id: int, days: int):
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    send_templated_mail(
        "sponsors/email/renewal_reminder",
        _context(
            sponsorship,
            days=days,
            renew_url=settings.SITE_URL + reverse("sponsors:renew", args=[sponsorship.pk]),
        ),
        recipients(sponsorship),
    )


def send_invoice_mail(sponsorship_id: int, invoice_id: int | None = None):
    """To the billing contact: the invoice was issued; its signed links open it (and say
    how to pay it) without an account on the site. It says the term it pays for."""
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    issued = IssuedDocument.objects.about(sponsorship).invoices()
    # Recorded before the mail named its invoice: the latest one.
    invoice = issued.filter(pk=invoice_id).first() if invoice_id else issued.order_by("-id").first()
    if invoice is None:
        return
    send_templated_mail(
        "sponsors/email/invoice",
        _context(
            sponsorship,
            invoice=invoice,
            term=documents.term_of(invoice),
            page_url=public_url(invoice),
            pdf_url=public_pdf_url(invoice),
            renew_url=settings.SITE_URL + reverse("sponsors:renew", args=[sponsorship.pk]),
        ),
        [sponsorship.organisation.billing_email],
    )


def send_payment_received(payment_id: int):
    """To the billing contact and managers: the payment arrived, with its receipt and the
    term it paid for."""
    payment = Payment.objects.get(pk=payment_id)
    sponsorship = payment.sponsorship
    receipt = documents.issue_receipt(payment)
    send_templated_mail(
        "sponsors/email/payment_received",
        _context(
            sponsorship,
            payment=payment,
            receipt=receipt,
            receipt_url=public_url(receipt),
            term=documents.term_of(receipt),
        ),
        recipients(sponsorship),
    )


def send_money_returned(payment_id: int, ended: bool):
    """To staff: money of a term's payment was taken back (refunded, disputed); ``ended``:
    all of it, so the term it paid for ended."""
    payment = Payment.objects.get(pk=payment_id)
    sponsorship = payment.sponsorship
    paid_term = PaidTerm.objects.filter(payment=payment).first()
    admin_url = settings.SITE_URL + reverse(
        "admin:sponsors_sponsorship_change", args=[sponsorship.pk]
    )
    back = payment.money_back()
    send_templated_mail(
        "sponsors/email/money_returned",
        {
            "sponsorship": sponsorship,
            "organisation": sponsorship.organisation,
            "payment": payment,
            "paid_term": paid_term,
            "ended": ended,
            "taken": back.words(payment.currency),
            "kept": from_minor_units(max(back.amount - back.gone - back.held, 0), payment.currency),
            "held": from_minor_units(back.held, payment.currency) if back.held else None,
            "admin_url": admin_url,
        },
        settings.STAFF_NOTIFICATION_EMAILS,
    )


def send_invitation(invitation_id: int):
    """The token travels in the mail only, never in the task's arguments."""
    invitation = Invitation.objects.select_related("organisation", "invited_by").get(
        pk=invitation_id
    )
    link = settings.SITE_URL + reverse("sponsors:accept-invitation", args=[invitation.token])
    send_templated_mail(
        "sponsors/email/invitation",
        {"invitation": invitation, "organisation": invitation.organisation, "link": link},
        [invitation.email],
    )
