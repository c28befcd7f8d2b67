from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail

from foundation.models import ContactMessage


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def mail_contact_message_to_staff(message_id: int):
    message = ContactMessage.objects.get(pk=message_id)
    send_mail(
        subject=f"[{message.get_topic_display()}] {message.name}",
        message=(
            f"From: {message.name} <{message.email}>\n"
            f"Organisation: {message.organisation or '-'}\n"
            f"Topic: {message.get_topic_display()}\n\n{message.message}\n"
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=settings.STAFF_NOTIFICATION_EMAILS,
    )
