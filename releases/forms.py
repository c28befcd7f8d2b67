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
                                    help_text="Markdown, shown on the release page. Left empty, "
                                              "the page links to the Knowledge Base's notes.")  # fmt: skip
    announcement_title = forms.CharField(max_length=200)
    announcement_summary = forms.CharField(max_length=300, widget=forms.Textarea(attrs={"rows": 2}))
    announcement_body = forms.CharField(widget=forms.Textarea(attrs={"rows": 14}),
                                        help_text="Markdown; the news post as it will go out.")  # fmt: skip
    without_files = forms.BooleanField(
        required=False,
        label="Publish without files",
        help_text="This stable release has no files yet. Tick to publish it anyway: its page, "
                  "/download/ and the APIs say its files are on their way until they are "
                  "imported.",
    )  # fmt: skip

    def __init__(self, *args, needs_files_choice=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.needs_files_choice = needs_files_choice
        if not needs_files_choice:
            del self.fields["without_files"]

    def clean(self):
        data = super().clean()
        if self.needs_files_choice and not data.get("without_files"):
            self.add_error(
                "without_files",
                "No file of this release is recorded. Read the archive again, or tick "
                "“Publish without files” to publish it now.",
            )
        return data


class SubscribeForm(forms.Form):
    """/download/subscribe/: an address to mail when a release is published."""

    email = forms.EmailField(
        label="Your email address",
        max_length=254,
        error_messages={"required": "Enter the address to mail.",
                        "invalid": "Enter a whole email address, such as dba@example.org."},
    )  # fmt: skip
