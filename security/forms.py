"""What visitors type: the advisory list's filters and the "Am I affected?" version
string; and staff's choice of advisories when a release is published."""

from typing import cast

from django import forms
from django.core.exceptions import ValidationError

from releases.models import Series
from releases.versions import series_sort_key
from security.models import Advisory, Severity
from security.server_version import MAX_LENGTH, NO_VERSION, VersionStringError, parse_server_version


class AdvisoryFilter(forms.Form):
    """GET filters of /security/ and /api/security/: a value that is not offered is an
    error the page names, never a 500."""

    q = forms.CharField(label="CVE id or words", required=False, max_length=100)
    series = forms.ChoiceField(label="Series", required=False)
    severity = forms.ChoiceField(
        label="Severity", required=False, choices=[("", "Any"), *Severity.choices]
    )
    year = forms.TypedChoiceField(
        label="Year published", required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args, series_versions=(), years=(), **kwargs):
        super().__init__(*args, **kwargs)
        series = cast(forms.ChoiceField, self.fields["series"])
        series.choices = [("", "Any")] + [(v, v) for v in series_versions]
        year = cast(forms.TypedChoiceField, self.fields["year"])
        year.choices = [("", "Any")] + [(str(y), str(y)) for y in years]

    @classmethod
    def for_data(cls, data):
        series = Series.objects.filter(
            pk__in=Advisory.objects.values("ranges__series")
        ).values_list("version", flat=True)
        years = sorted(
            {d.year for d in Advisory.objects.values_list("published", flat=True)}, reverse=True
        )
        ordered = sorted(series, key=series_sort_key, reverse=True)
        return cls(data, series_versions=ordered, years=years)

    def filters(self) -> dict:
        data = self.cleaned_data
        return {
            "series": data.get("series") or "",
            "rating": data.get("severity") or "",
            "year": data.get("year"),
            "text": data.get("q") or "",
        }


class VersionForm(forms.Form):
    version = forms.CharField(
        label="What your server prints for SELECT VERSION()",
        max_length=MAX_LENGTH,
        help_text="e.g. 10.6.12-MariaDB-0ubuntu0.22.04.1-log or 11.4.10-MariaDB-log",
        error_messages={"required": NO_VERSION},
    )

    def clean_version(self):
        try:
            return parse_server_version(self.cleaned_data["version"])
        except VersionStringError as error:
            raise ValidationError(str(error)) from error


class AttachForm(forms.Form):
    advisories = forms.ModelMultipleChoiceField(
        queryset=Advisory.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label="Advisories this release fixes",
    )

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelMultipleChoiceField, self.fields["advisories"]).queryset = candidates
