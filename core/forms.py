import re
import unicodedata

from django import forms

from core.models import DISPLAY_NAME_MAX, Profile

DISPLAY_NAME_MIN = 2
EMAIL_LIKE = re.compile(r"\S@\S|@\S+\.\S")


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
