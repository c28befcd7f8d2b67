import re
import unicodedata
from typing import Any

from django import forms

from core.models import DISPLAY_NAME_MAX, Profile

DISPLAY_NAME_MIN = 2
EMAIL_LIKE = re.compile(r"\S@\S|@\S+\.\S")


class PrivateFileInput(forms.ClearableFileInput):
    """A file field whose stored file lives in the private folder (core.storage), which
    has no URL: the "Currently" link goes to ``url``, a view that checks permission."""

    def __init__(self, attrs: dict[str, Any] | None = None, *, url: str = "") -> None:
        super().__init__(attrs)
        self.url = url

    def is_initial(self, value: object) -> bool:
        return bool(value and getattr(value, "name", ""))

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        if self.is_initial(value):
            context["widget"]["value"] = _LinkedFile(value.name, self.url)
        return context


class _LinkedFile(str):
    """What the widget's template reads: the file's name, and ``url`` to open it."""

    url: str

    def __new__(cls, name: str, url: str) -> "_LinkedFile":
        linked = super().__new__(cls, name)
        linked.url = url
        return linked


class ProfileForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    class Meta:
        model = Profile
        fields = ["display_name"]
        labels = {"display_name": "Display name"}
        help_texts = {
            "display_name": f"Shown with your comments. {DISPLAY_NAME_MIN} to "
            f"{DISPLAY_NAME_MAX} characters, not an e-mail address. Leave it empty to "
            "comment as “A reader”."
        }

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())  # stripped, single spaces
        if any(unicodedata.category(char).startswith("C") for char in name):
            raise forms.ValidationError("Use letters, numbers and punctuation only.")
        if EMAIL_LIKE.search(name):
            raise forms.ValidationError("A display name cannot be an e-mail address.")
        if name and len(name) < DISPLAY_NAME_MIN:
            raise forms.ValidationError(
                f"Use at least {DISPLAY_NAME_MIN} characters, or leave it empty."
            )
        return name
