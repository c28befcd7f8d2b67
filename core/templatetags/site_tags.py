from decimal import Decimal
from typing import Any

from django import template
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from core import formatting
from core.markdown import render_comment, render_markdown
from core.models import public_name
from core.shortcodes import expand

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    """Render Markdown to sanitised HTML (safe to print unescaped)."""
    return mark_safe(render_markdown(text))  # noqa: S308 - sanitised by nh3


@register.filter(name="expand_shortcodes")
def expand_shortcodes_filter(stored_html: str) -> SafeString:
    """Staff-written Markdown already rendered and sanitised when it was saved (such as
    ``NewsPost.body_html``), with its embeds (benchmark charts) expanded now."""
    return mark_safe(expand(stored_html))  # noqa: S308 - sanitised at save, then trusted embeds


@register.filter(name="comment_markdown")
def comment_markdown_filter(text: str) -> SafeString:
    """For readers' comments: the strict profile (no images, classes or styles)."""
    return mark_safe(render_comment(text))  # noqa: S308 - sanitised by nh3


@register.filter(name="money")
def money_filter(amount: Decimal | int | None, currency: str = "") -> str:
    """``{{ tier.annual_price|money:tier.currency }}`` prints "€100,000"."""
    return formatting.money(amount, currency)


@register.filter(name="file_size")
def file_size_filter(size: int | None) -> str:
    """``{{ file.size|file_size }}`` prints "92.3 MiB" (binary units, correctly named)."""
    return formatting.file_size(size)


@register.filter(name="excerpt")
def excerpt_filter(text: str, length: int = 200) -> str:
    """A summary cut on a word boundary, with "…" when something was cut."""
    return formatting.excerpt(text, int(length))


@register.filter(name="public_name")
def public_name_filter(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """The name shown publicly for a user (a commenter): never their e-mail address."""
    return public_name(user)


@register.inclusion_tag("includes/breadcrumbs.html")
def breadcrumbs(*trail: str) -> dict[str, Any]:
    """The way back to the home page, for a page's {% block breadcrumbs %}.

    Arguments alternate a label and where it leads; the last argument is the current
    page's own label. A destination starting with "/" is a path (for instance a model's
    get_absolute_url), anything else a URL name:
    {% breadcrumbs "About" "foundation:about" "Board" %}.
    """
    *ancestors, current = trail
    links = [
        (label, target if str(target).startswith("/") else reverse(target))
        for label, target in zip(ancestors[::2], ancestors[1::2], strict=True)
    ]
    return {"links": [("Home", reverse("home")), *links], "current": current}
