"""Mail to donors; texts are in templates/donations/email/.

Services record each mail in the outbox (``outbox.queue``), which calls these functions
after the commit and again until the mail server accepts it; nothing here changes the
database.
"""

from django.conf import settings
from django.urls import reverse

from core.mail import send_templated_mail
from donations.models import Donation, Gift
from donations.signing import manage_token
from invoicing import services as issuing
from invoicing.models import IssuedDocument

# The outbox kinds of these mails (registered in DonationsConfig.ready()).
RECEIPT = "donations.receipt"
PAYMENT_FAILED = "donations.payment_failed"
MANAGE_LINKS = "donations.manage_links"
CANCELLED = "donations.cancelled"


def manage_url(donation: Donation) -> str:
    return settings.SITE_URL + reverse("donations:manage", args=[manage_token(donation.reference)])


def _send(template: str, context: dict, recipient: str):
    send_templated_mail(f"donations/email/{template}", context, [recipient])


def send_receipt(gift_id: int):
    gift = Gift.objects.get(pk=gift_id)
    donation = gift.donation
    if not donation.email:
        return
    context = {
        "gift": gift,
        "donation": donation,
        "receipt": issuing.find(IssuedDocument.Kind.RECEIPT, donation, gift.stripe_id),
        "manage_url": manage_url(donation),
        "site_url_donate": settings.SITE_URL + reverse("donations:manage-request"),
    }
    _send("receipt", context, donation.email)


def send_payment_failed(donation_id: int):
    donation = Donation.objects.get(pk=donation_id)
    if not donation.email:
        return
    _send(
        "payment_failed", {"donation": donation, "manage_url": manage_url(donation)}, donation.email
    )


def send_manage_links(email: str):
    donations = list(Donation.objects.given().filter(email__iexact=email))
    if not donations:
        return
    links = [(donation, manage_url(donation)) for donation in donations]
    _send("manage_links", {"links": links}, donations[0].email)


def send_cancelled(donation_id: int):
    """Stripe ended the monthly gift (the donor's request, or Stripe's own decision)."""
    donation = Donation.objects.get(pk=donation_id)
    if not donation.email:
        return
    last = donation.gifts.order_by("-paid_at").first()
    _send(
        "cancelled",
        {"donation": donation, "last": last, "manage_url": manage_url(donation)},
        donation.email,
    )
