from datetime import timedelta

from django import template
from django.conf import settings

from sponsors import documents
from sponsors.models import Payment, Sponsorship
from sponsors.services.lifecycle import REMINDER_DAYS

register = template.Library()


@register.simple_tag
def invoice_due_days() -> int:
    """How many days an invoice gives (INVOICE_DUE_DAYS), as the pages say it."""
    return settings.INVOICE_DUE_DAYS


@register.simple_tag
def first_renewal_reminder_days() -> int:
    """How long before a term ends the first renewal reminder is sent."""
    return max(REMINDER_DAYS)


@register.inclusion_tag("sponsors/includes/sponsor_strip.html")
def sponsor_strip(count=12):
    """The home page's thank-you strip: active sponsors, highest tiers first."""
    sponsors = Sponsorship.objects.on_supporters_page().select_related("organisation")[:count]
    # Highest tiers first (on_supporters_page's order), each at half its supporters-page size.
    return {"sponsors": list(sponsors), "demo": Payment.objects.demo().exists()}


@register.filter
def add_days(day, days):
    """``{{ s.starts_on|add_days:30 }}``: the date that many days later."""
    try:
        return day + timedelta(days=int(days))
    except (TypeError, ValueError):
        return None


@register.filter
def invoice_term(doc):
    """``{{ invoice|invoice_term }}``: the term an issued invoice or receipt pays for."""
    return documents.term_of(doc)
