from django import forms

from core import numbers
from sponsors.benefits.models import Benefit


class AssetForm(forms.Form):
    """One form for every kind of asset; the benefit decides which field counts."""

    delivery = numbers.IntegerField(widget=forms.HiddenInput)
    logo = forms.FileField(required=False, label="Logo file")
    text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}), label="Text")
    url = forms.URLField(required=False, assume_scheme="https", label="Link")

    @staticmethod
    def field_for(benefit: Benefit) -> str:
        fields: dict[str, str] = {
            Benefit.Asset.LOGO: "logo",
            Benefit.Asset.TEXT: "text",
            Benefit.Asset.LINK: "url",
        }
        return fields.get(benefit.asset, "")
