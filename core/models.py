"""What the site keeps about a user beyond allauth's account: the name shown in public."""

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

    def __str__(self):
        return self.display_name or f"Profile {self.pk}"


def public_name(user) -> str:
    """The name shown publicly for ``user``: the display name they chose, or a neutral
    stand-in. Querysets that show many users select ``author__profile`` with them."""
    try:
        name = user.profile.display_name
    except (Profile.DoesNotExist, AttributeError):
        name = ""
    return name or ANONYMOUS_NAME
