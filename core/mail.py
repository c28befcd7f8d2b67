"""Mail whose subject and body are templates: ``<prefix>_subject.txt`` and ``<prefix>_body.txt``.

Apps record each mail in the outbox (``outbox.queue``) with the change that causes it; the
outbox calls the app's mail function after the commit, and again until the mail server
accepts it, so a mail server that is down delays a message rather than losing it.
"""

from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string


def send_templated_mail(
    template_prefix: str,
    context: dict[str, Any],
    recipients: list[str],
    headers: dict[str, str] | None = None,
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
