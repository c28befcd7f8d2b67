from django import forms

from benchmarks.importers import IMPORTERS, ImportFailed
from benchmarks.models import MAY_BE_UNSTATED, PROVENANCE, Run, SubmissionToken
from benchmarks.services import importing, limits
from core import numbers


class RunUploadForm(forms.Form):
    label = forms.CharField(
        max_length=limits.field_limit(Run, "label"),
        help_text="Shown in legends, e.g. pool-of-threads",
    )
    file = forms.FileField(
        help_text="Raw output: sysbench text, YCSB text or JSON, JMH JSON, hyperfine JSON, or a CSV/TSV table"
    )
    importer = forms.ChoiceField(
        choices=[("", "Detect from the content"), *[(name, name) for name in IMPORTERS]],
        required=False,
    )
    parameters = forms.CharField(
        required=False, help_text='JSON, e.g. {"threads": 64} (for CSV: "metric" and "unit")'
    )
    variant = forms.CharField(
        required=False, help_text='JSON tags, e.g. {"thread_handling": "pool-of-threads"}'
    )
    hardware = forms.CharField(required=False, max_length=limits.field_limit(Run, "hardware"))
    os = forms.CharField(required=False, label="OS", max_length=limits.field_limit(Run, "os"))
    server_version = forms.CharField(
        required=False, max_length=limits.field_limit(Run, "server_version")
    )
    server_commit = forms.CharField(
        required=False, max_length=limits.field_limit(Run, "server_commit")
    )
    server_config = forms.CharField(
        required=False,
        max_length=limits.field_limit(Run, "server_config"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    client = forms.CharField(
        required=False,
        label="Tool and version",
        max_length=limits.field_limit(Run, "client"),
        help_text="e.g. sysbench 1.0.20",
    )
    run_date = numbers.DateField(
        required=False,
        label="Date measured",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    source = forms.CharField(
        required=False,
        max_length=limits.field_limit(Run, "source"),
        help_text="Where the figures come from: an article, a CI job",
    )
    source_url = forms.URLField(
        required=False,
        label="Source URL",
        assume_scheme="https",
        max_length=limits.field_limit(Run, "source_url"),
    )
    unstated = forms.MultipleChoiceField(
        required=False,
        choices=[(name, PROVENANCE[name]) for name in MAY_BE_UNSTATED],
        widget=forms.CheckboxSelectMultiple,
        label="Not stated by the source",
        help_text="Only for figures taken from a cited source that does not say",
    )
    notes = forms.CharField(
        required=False,
        max_length=limits.field_limit(Run, "notes"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The provenance a reviewer needs: marked in the label, and said how it may be left
        # out (only for a cited source that does not state it; the source never).
        for name in PROVENANCE:
            field = self.fields[name]
            field.label = f"{field.label or name.replace('_', ' ').capitalize()} (required)"
            field.widget.attrs["aria-required"] = "true"
            unless = (
                "" if name == "source" else " unless you tick it under “Not stated by the source”"
            )
            field.help_text = " ".join(filter(None, [str(field.help_text), f"Required{unless}."]))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > importing.MAX_UPLOAD_BYTES:
            raise forms.ValidationError(importing.SIZE_MESSAGE)
        return upload

    def _json(self, field):
        try:
            return limits.check_tags(field, self.cleaned_data.get(field) or "{}")
        except ImportFailed as error:
            raise forms.ValidationError(str(error)) from error

    def clean_server_version(self):
        printed = self.cleaned_data.get("server_version") or ""
        if printed:
            try:
                numbers.parse_version(printed)
            except numbers.NumberRefused as error:
                raise forms.ValidationError(str(error)) from error
        return printed

    def clean_parameters(self):
        return self._json("parameters")

    def clean_variant(self):
        return self._json("variant")


class RejectRunsForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text="The uploader reads this: say what to fix",
    )


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=limits.field_limit(SubmissionToken, "name"),
        label="Token name",
        help_text="Say where it is used, e.g. “CI: arm64 runner”: you can revoke each on its own",
    )
