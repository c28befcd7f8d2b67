from django import template

from invoicing.issuer import DEMO_NOTICE

register = template.Library()


@register.simple_tag
def demo_issuer_notice() -> str:
    """The warning every document of a demo issuer carries, in its PDF and in its mail."""
    return DEMO_NOTICE
