"""Mail whose subject and body are templates: ``<prefix>_subject.txt`` and ``<prefix>_body.txt``.

Apps send their mail from Celery tasks declared with ``MAIL_TASK_OPTIONS``, so a mail
server that is down delays a message rather than losing it.
"""

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string

# smtplib's errors and refused connections are all OSErrors.
MAIL_TASK_OPTIONS = {"autoretry_for": (OSError,), "retry_backoff": True, "max_retries": 5}


def send_templated_mail(
    template_prefix: str,
    context: dict,
    recipients: list[str],
    headers: dict | None = None,
    reply_to: list[str] | None = None,
) -> int:
    subject = " ".join(render_to_string(f"{template_prefix}_subject.txt", context).split())
    # Template files end with a newline after their last tag; the mail ends with one.
    body = render_to_string(f"{template_prefix}_body.txt", context).rstrip("\n") + "\n"
    message = EmailMessage(
        subject,
        body,
        settings.DEFAULT_FROM_EMAIL,
        recipients,
        headers=headers or {},
        reply_to=reply_to or [],
    )
    return message.send()
