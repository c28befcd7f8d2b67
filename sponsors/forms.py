from django import forms
from django.conf import settings

from sponsors.models import Organisation, Sponsorship


class OrganisationForm(forms.ModelForm):
    website = forms.URLField(max_length=200, assume_scheme="https")
    logo_upload = forms.FileField(
        required=False, label="Logo", help_text="PNG, JPEG, WebP or SVG, up to 1 MiB"
    )

    class Meta:
        model = Organisation
        fields = ["name", "website", "description", "billing_name", "billing_email", "vat_id"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


class ApplicationForm(forms.Form):
    organisation = forms.ModelChoiceField(queryset=Organisation.objects.none(), required=False,
                                          empty_label="A new organisation (fill in below)")  # fmt: skip
    payment_method = forms.ChoiceField(choices=Sponsorship.Payment.choices, widget=forms.RadioSelect,
                                       initial=Sponsorship.Payment.CARD_ANNUAL)  # fmt: skip

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["organisation"].queryset = Organisation.objects.filter(managers=user)


class CardForm(forms.Form):
    """Production: Stripe.js fills payment_method_id in the browser. Test mode (a fake Stripe
    at STRIPE_API_BASE): the card fields go to the fake through the server."""

    payment_method_id = forms.CharField(required=False, widget=forms.HiddenInput)
    number = forms.CharField(required=False, max_length=19, label="Card number")
    exp_month = forms.IntegerField(required=False, min_value=1, max_value=12, label="Expiry month")
    exp_year = forms.IntegerField(
        required=False, min_value=2024, max_value=2100, label="Expiry year"
    )
    cvc = forms.CharField(required=False, max_length=4, label="CVC")

    def clean(self):
        data = super().clean()
        if data.get("payment_method_id"):
            return data
        if not settings.STRIPE_API_BASE:
            raise forms.ValidationError("Card details must be entered in the secure Stripe form.")
        if not all(data.get(field) for field in ["number", "exp_month", "exp_year", "cvc"]):
            raise forms.ValidationError("Enter the card number, expiry and CVC.")
        return data


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=120)
    website = forms.URLField(max_length=200, assume_scheme="https")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=1000, required=False
    )


class LogoForm(forms.Form):
    logo = forms.FileField(help_text="PNG, JPEG, WebP or SVG, up to 1 MiB")


class InviteForm(forms.Form):
    email = forms.EmailField(label="Colleague's email address")
