import re
import unicodedata

from django import forms

from core.models import DISPLAY_NAME_MAX, Profile

DISPLAY_NAME_MIN = 2
EMAIL_LIKE = re.compile(r"\S@\S|@\S+\.\S")


class PrivateFileInput(forms.ClearableFileInput):
    """A file field whose stored file lives in the private folder (core.storage), which
    has no URL: the "Currently" link goes to ``url``, a view that checks permission."""

    def __init__(self, attrs=None, *, url=""):
        super().__init__(attrs)
        self.url = url

    def is_initial(self, value):
        return bool(value and getattr(value, "name", ""))

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        if self.is_initial(value):
            context["widget"]["value"] = _LinkedFile(value.name, self.url)
        return context


class _LinkedFile(str):
    """What the widget's template reads: the file's name, and ``url`` to open it."""

    def __new__(cls, name, url):
        linked = super().__new__(cls, name)
        linked.url = url
        return linked


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name"]
        labels = {"display_name": "Display name"}
        help_texts = {
            "display_name": f"Shown with your comments. {DISPLAY_NAME_MIN} to "
            f"{DISPLAY_NAME_MAX} characters, not an e-mail address. Leave it empty to "
            "comment as “A reader”."
        }

    def clean_display_name(self):
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
