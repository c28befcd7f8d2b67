"""What the site keeps about a user beyond allauth's account (the name shown in public), and
the day the demo content was built around."""

from typing import Any

from django.conf import settings
from django.db import models

DISPLAY_NAME_MAX = 50
# Shown for a commenter who has not chosen a display name: never any part of the e-mail.
ANONYMOUS_NAME = "A reader"


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX,
        blank=True,
        help_text="Shown with the user's comments instead of anything from the e-mail address",
    )

    def __str__(self) -> str:
        return self.display_name or f"Profile {self.pk}"


def public_name(user: Any) -> str:
    """The name shown publicly for ``user``: the display name they chose, or a neutral
    stand-in. Querysets that show many users select ``author__profile`` with them."""
    try:
        name = user.profile.display_name
    except (Profile.DoesNotExist, AttributeError):
        name = ""
    return name or ANONYMOUS_NAME


class DemoContent(models.Model):
    """One row once ``load_demo`` has run: the day its content was built around. Demo
    terms, gifts, reports and runs are dated relative to that day, and pages that show
    demo content say which day it was (so "this month" in a demo is a stated month)."""

    built_around = models.DateField(help_text="The day the demo content treats as today")
    loaded_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "demo content"
        verbose_name_plural = "demo content"

    def __str__(self) -> str:
        return f"Demo content built around {self.built_around:%Y-%m-%d}"

    @classmethod
    def current(cls) -> "DemoContent | None":
        return cls.objects.order_by("-pk").first()
