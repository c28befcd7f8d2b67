import json

from django import forms

from benchmarks.importers import IMPORTERS

MAX_UPLOAD = 5 * 1024 * 1024


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
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError("The file is larger than 5 MiB.")
        return upload

    def _json(self, field):
        text = self.cleaned_data.get(field) or "{}"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(f"Not valid JSON: {error.msg}") from error
        if not isinstance(value, dict):
            raise forms.ValidationError('Give a JSON object, e.g. {"threads": 64}.')
        return value

    def clean_parameters(self):
        return self._json("parameters")

    def clean_variant(self):
        return self._json("variant")
