from django import forms

from benchmarks import services
from benchmarks.importers import IMPORTERS, ImportFailed


class RunUploadForm(forms.Form):
    label = forms.CharField(max_length=120, help_text="Shown in legends, e.g. pool-of-threads")
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
    hardware = forms.CharField(required=False)
    os = forms.CharField(required=False, label="OS")
    server_version = forms.CharField(required=False)
    server_config = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    client = forms.CharField(required=False)
    run_date = forms.DateField(required=False, help_text="YYYY-MM-DD")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > services.MAX_UPLOAD_BYTES:
            raise forms.ValidationError(services.SIZE_MESSAGE)
        return upload

    def _json(self, field):
        try:
            return services.check_tags(field, self.cleaned_data.get(field) or "{}")
        except ImportFailed as error:
            raise forms.ValidationError(str(error)) from error

    def clean_parameters(self):
        return self._json("parameters")

    def clean_variant(self):
        return self._json("variant")
