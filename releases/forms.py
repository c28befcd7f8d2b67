"""What staff type in the publishing flow (admin → Releases → Publish a release)."""

from django import forms
from django.core.exceptions import ValidationError

from releases.catalogue import series_of
from releases.models import Release, Series
from releases.versions import validate_release_version


class NewReleaseForm(forms.Form):
    version = forms.CharField(max_length=40, validators=[validate_release_version],
                              help_text="e.g. 12.3.4; its series must exist.")  # fmt: skip
    release_date = forms.DateField(help_text="YYYY-MM-DD")
    maturity = forms.ChoiceField(choices=Release.Maturity.choices, initial=Release.Maturity.GA)

    def clean_version(self):
        version = self.cleaned_data["version"]
        existing = Release.objects.filter(version=version).first()
        if existing is not None and existing.is_published:
            raise ValidationError(f"MariaDB {version} is already published.")
        if not Series.objects.filter(version=series_of(version)).exists():
            raise ValidationError(f"There is no series {series_of(version)}: add it first.")
        return version


class PublishForm(forms.Form):
    release_notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}), required=False,
                                    help_text="Markdown, shown on the release page.")  # fmt: skip
    announcement_title = forms.CharField(max_length=200)
    announcement_summary = forms.CharField(max_length=300, widget=forms.Textarea(attrs={"rows": 2}))
    announcement_body = forms.CharField(widget=forms.Textarea(attrs={"rows": 14}),
                                        help_text="Markdown; the news post as it will go out.")  # fmt: skip


class SubscribeForm(forms.Form):
    """/download/subscribe/: an address to mail when a release is published."""

    email = forms.EmailField(
        label="Your email address",
        max_length=254,
        error_messages={"required": "Enter the address to mail.",
                        "invalid": "Enter a whole email address, such as dba@example.org."},
    )  # fmt: skip
