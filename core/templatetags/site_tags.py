from django import template
from django.utils.safestring import mark_safe

from core.markdown import render_comment, render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text):
    """Render Markdown to sanitised HTML (safe to print unescaped)."""
    return mark_safe(render_markdown(text))  # noqa: S308 - sanitised by nh3


@register.filter(name="markdown_with_shortcodes")
def markdown_with_shortcodes_filter(text):
    """For staff-written content: Markdown plus embeds such as benchmark charts."""
    return mark_safe(render_markdown(text, shortcodes=True))  # noqa: S308 - sanitised, then trusted embeds


@register.filter(name="comment_markdown")
def comment_markdown_filter(text):
    """For readers' comments: the strict profile (no images, classes or styles)."""
    return mark_safe(render_comment(text))  # noqa: S308 - sanitised by nh3
