from collections.abc import Mapping
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError

from core import numbers
from core.formatting import money
from sponsors import agreements
from sponsors.models import Organisation, Sponsorship
from sponsors.services import organisations


class OrganisationForm(forms.ModelForm):
    website = forms.URLField(max_length=200, assume_scheme="https")
    logo_upload = forms.FileField(
        required=False, label="Logo", help_text="PNG, JPEG, WebP or SVG, up to 1 MiB"
    )

    class Meta:
        model = Organisation
        fields = [
            "name",
            "website",
            "description",
            "contact_name",
            "contact_email",
            "billing_name",
            "billing_email",
            "billing_address",
            "billing_country",
            "vat_id",
        ]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "billing_address": forms.Textarea(attrs={"rows": 3}),
        }
        labels = {"contact_name": "Contact person", "contact_email": "Contact's e-mail"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("contact_name", "contact_email", "billing_address"):
            self.fields[name].required = True


class ApplicationForm(forms.Form):
    organisation = forms.ModelChoiceField(
        queryset=Organisation.objects.none(),
        required=False,
        empty_label="A new organisation (fill in below)",
    )
    payment_method = forms.ChoiceField(
        choices=Sponsorship.Payment.choices,
        widget=forms.RadioSelect,
        initial=Sponsorship.Payment.CARD_ANNUAL,
    )
    agreement_version = numbers.IntegerField(widget=forms.HiddenInput, min_value=1)
    # The payment the agreement on the page was written for: its fee clause names it.
    agreement_payment = forms.ChoiceField(
        choices=Sponsorship.Payment.choices, widget=forms.HiddenInput, required=False
    )
    accept_agreement = forms.BooleanField(
        label="I have read the agreement above and accept it on behalf of the organisation",
        error_messages={"required": "Accept the agreement to apply; nothing was recorded."},
    )

    def __init__(self, *args, user, agreement_version: int, **kwargs):
        super().__init__(*args, **kwargs)
        organisation = cast(forms.ModelChoiceField, self.fields["organisation"])
        organisation.queryset = Organisation.objects.managed_by(user)
        self.fields["agreement_version"].initial = agreement_version
        self.current_version = agreement_version

    def clean_agreement_version(self):
        version = self.cleaned_data["agreement_version"]
        if version != self.current_version:
            raise forms.ValidationError(
                f"The agreement was updated while you read it (you saw version {version}; it "
                f"is now version {self.current_version}). Nothing was recorded: please read "
                "the agreement below and accept it again."
            )
        return version

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        chosen, read = cleaned.get("payment_method"), cleaned.get("agreement_payment", "")
        if chosen and read != chosen:
            self.add_error(
                None,
                "The agreement you read says the fee is paid "
                f"{agreements.payment_words().get(read, 'in another way')}; you chose "
                f"{Sponsorship.Payment(chosen).label.lower()}. Nothing was recorded: the "
                "agreement below now says how you chose to pay; please read it and accept it.",
            )
        return cleaned

    def shown_payment(self) -> str:
        """The payment the agreement on the page is written for: the one chosen."""
        chosen = self["payment_method"].value()
        valid = chosen in Sponsorship.Payment.values
        return chosen if valid else Sponsorship.Payment.CARD_ANNUAL


class ApplicationForms:
    """The application page's forms: the application, and a new organisation's unless an
    existing one is chosen, with the logo kept (validated) from a refused attempt."""

    def __init__(self, request, *, agreement_version: int):
        data = request.POST or None
        self.user = request.user
        self.form = ApplicationForm(data, user=request.user, agreement_version=agreement_version)
        # An existing organisation chosen: the new one's fields were not meant to be sent.
        self.for_new_organisation = not request.POST.get("organisation")
        self.organisation_form = (
            OrganisationForm(data, request.FILES or None, prefix="org")
            if self.for_new_organisation
            else OrganisationForm(prefix="org")
        )
        self.upload = request.FILES.get("org-logo_upload")
        self.held = (
            organisations.held_logo(request.user, request.POST.get("org-held_logo", ""))
            if request.method == "POST" and self.for_new_organisation
            else None
        )

    def organisation_fields(self) -> dict | None:
        """A valid new organisation's fields, its logo the one kept unless another was
        chosen; None when the organisation form is refused."""
        if not self.organisation_form.is_valid():
            return None
        fields = dict(self.organisation_form.cleaned_data)
        if not fields.get("logo_upload") and self.held is not None:
            fields["logo_upload"] = organisations.use_held_logo(self.held)
        return fields

    def keep_logo(self):
        """After a refusal: every error of the organisation form at once, and its upload kept
        for the re-rendered form (or refused, saying why)."""
        if not self.for_new_organisation:
            return
        self.organisation_form.is_valid()
        if self.upload and "logo_upload" not in self.organisation_form.errors:
            try:
                self.held = organisations.hold_logo(self.user, self.upload)
            except ValidationError as error:
                self.organisation_form.add_error("logo_upload", error)


def price_label(sponsorship: Sponsorship, renewal: bool = False) -> str:
    """ "€50,000 every year", "€50,000 for one year", or for a renewal "€50,000 for" and
    the next term's label (``Term.label``): what paying now is for."""
    terms = sponsorship.terms
    if renewal:
        every = f"for {sponsorship.next_term}"
    elif sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
        every = "every year"
    else:
        every = "for one year"
    return f"{money(terms['annual_price'], terms['currency'])} {every}"


def paid_as(sponsorship: Sponsorship, renewal: bool) -> str:
    """The way of paying a page offers: a renewal by card is one payment for one term."""
    return Sponsorship.Payment.CARD_ONCE if renewal else sponsorship.payment_method


class PriceConfirmationForm(forms.Form):
    """The price the payer saw, sent back with the payment: a page that showed another
    price (terms changed since, an edited form) is refused rather than charged."""

    amount = forms.CharField(widget=forms.HiddenInput)
    currency = forms.CharField(widget=forms.HiddenInput)
    payment_method = forms.CharField(widget=forms.HiddenInput)

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        sponsorship: Sponsorship,
        renewal: bool = False,
        **kwargs: Any,
    ):
        self.sponsorship = sponsorship
        self.renewal = renewal
        terms = sponsorship.terms
        initial = {
            "amount": terms["annual_price"],
            "currency": terms["currency"],
            "payment_method": paid_as(sponsorship, renewal),
        }
        super().__init__(data, initial=initial, **kwargs)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        terms = self.sponsorship.terms
        try:  # the digits 0-9 only: Decimal() reads every script's digits
            amount = numbers.parse_decimal(data.get("amount", ""), "amount")
        except numbers.NumberRefused:
            amount = None
        same = (
            amount == Decimal(terms["annual_price"])
            and data.get("currency", "").upper() == terms["currency"].upper()
            and data.get("payment_method") == paid_as(self.sponsorship, self.renewal)
        )
        if not same:
            raise forms.ValidationError(
                "This form did not say the price of this sponsorship as it stands now "
                f"({price_label(self.sponsorship, self.renewal)}). Nothing was charged: check "
                "the price below and pay again.",
                code="price_mismatch",
            )
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
