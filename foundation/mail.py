"""The foundation app's mail; texts are in templates/foundation/email/. Services record
each mail in the outbox (``outbox.queue``), which calls these functions after the commit
and again until the mail server accepts it."""

from email.utils import formataddr

from django.conf import settings

from core.mail import send_templated_mail
from foundation.models import ContactMessage

# The outbox kinds of the mails below (registered in FoundationConfig.ready()).
CONTACT_MESSAGE = "foundation.contact_message"
CONTACT_ACKNOWLEDGEMENT = "foundation.contact_acknowledgement"


def mail_contact_message_to_staff(message_id: int):
    message = ContactMessage.objects.get(pk=message_id)
    # Staff answer with Reply; the name goes on one line whatever was typed.
    sender = formataddr((" ".join(message.name.split()), message.email))
    send_templated_mail(
        "foundation/email/contact_message",
        {"message": message},
        settings.STAFF_NOTIFICATION_EMAILS,
        reply_to=[sender],
    )


def mail_contact_acknowledgement(message_id: int):
    """Tell the sender that the message arrived. It repeats none of what was typed (the
    form must not mail a stranger's text to any address given), only the topic and date."""
    message = ContactMessage.objects.get(pk=message_id)
    send_templated_mail(
        "foundation/email/contact_acknowledgement",
        {"message": message, "site_url": settings.SITE_URL.rstrip("/")},
        [message.email],
    )
