from decimal import Decimal

from django import forms
from django.conf import settings

from core import numbers
from core.formatting import money
from donations.models import Donation

CUSTOM = "custom"


def giftable(amount) -> bool:
    """Whether ``amount`` (text or Decimal) is a gift the form takes: a number of whole
    cents between the minimum and the maximum. The button names no other amount."""
    if isinstance(amount, str) and numbers.stray_character(amount) is not None:
        return False  # the digits 0-9 only: Decimal() reads every script's digits
    try:
        amount = Decimal(amount)
    except ArithmeticError:
        return False
    return (
        amount.is_finite()
        and amount.as_tuple().exponent >= -2
        and settings.DONATION_MINIMUM_AMOUNT <= amount <= settings.DONATION_MAXIMUM_AMOUNT
    )


def _preset_choices():
    presets = [(str(amount), f"{amount:,}") for amount in settings.DONATION_PRESET_AMOUNTS]
    return [*presets, (CUSTOM, "Another amount")]


class DonationForm(forms.Form):
    frequency = forms.ChoiceField(
        choices=Donation.Frequency.choices,
        initial=Donation.Frequency.ONCE,
        widget=forms.RadioSelect,
        label="How often",
    )
    preset = forms.ChoiceField(choices=_preset_choices, widget=forms.RadioSelect, label="Amount")
    custom_amount = numbers.DecimalField(
        required=False,
        max_digits=8,
        decimal_places=2,
        label="Another amount",
        widget=forms.NumberInput(
            attrs={"inputmode": "decimal", "step": "0.01", "data-custom-amount": ""}
        ),
    )
    currency = forms.ChoiceField(label="Currency")
    email = forms.EmailField(
        required=False,
        label="E-mail for the receipt",
        help_text="Optional: the receipt and the link to manage your gift are sent here.",
    )
    show_on_wall = forms.BooleanField(
        required=False, label="Thank me by name on the public donor wall"
    )
    public_name = forms.CharField(
        required=False,
        max_length=80,
        label="Name to show",
        help_text="Only shown if you tick the box above. The amount is never shown.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        currencies = settings.DONATION_CURRENCIES
        self.fields["currency"].choices = [(code, code) for code in currencies]
        self.fields["currency"].initial = currencies[0]
        self.fields["preset"].initial = str(settings.DONATION_PRESET_AMOUNTS[1])
        # donate.js names an amount on the button only within these bounds.
        self.fields["custom_amount"].widget.attrs.update(
            min=settings.DONATION_MINIMUM_AMOUNT, max=settings.DONATION_MAXIMUM_AMOUNT
        )

    def button_label(self) -> str:
        """What the submit button says: the amount, currency and frequency that will be charged."""
        values = self.data if self.is_bound else {}
        preset = values.get("preset") or self.fields["preset"].initial
        currency = values.get("currency") or self.fields["currency"].initial
        monthly = values.get("frequency") == Donation.Frequency.MONTHLY
        amount = values.get("custom_amount") if preset == CUSTOM else preset
        if currency not in settings.DONATION_CURRENCIES:
            return gift_label("", monthly)
        shown = money(amount, currency) if amount and giftable(amount) else ""
        return gift_label(shown, monthly)

    def currency_symbols(self) -> dict[str, str]:
        """Each offered currency's prefix, for the script that keeps the button in step."""
        return {code: money(0, code).removesuffix("0") for code in settings.DONATION_CURRENCIES}

    def clean(self):
        data = super().clean()
        preset = data.get("preset")
        typed = data.get("custom_amount")
        if preset and preset != CUSTOM and typed is not None and typed != Decimal(preset):
            # Two different amounts arrived: charging either one would be a guess.
            raise forms.ValidationError(
                f"You picked {Decimal(preset):,} and also typed {typed:,} in "
                "“Another amount”. Nothing was charged: pick “Another amount” to give what "
                "you typed, or clear that box to give the amount you picked.",
                code="ambiguous_amount",
            )
        if preset == CUSTOM:
            amount = data.get("custom_amount")
            if amount is None:
                self.add_error("custom_amount", "Type the amount you would like to give.")
                return data
        elif preset:
            amount = Decimal(preset)
        else:
            return data
        minimum = Decimal(settings.DONATION_MINIMUM_AMOUNT)
        maximum = Decimal(settings.DONATION_MAXIMUM_AMOUNT)
        field = "custom_amount" if preset == CUSTOM else "preset"
        if amount < minimum:
            self.add_error(field, f"The smallest gift we can take is {minimum:,.2f}.")
        elif amount > maximum:
            self.add_error(
                field,
                f"For gifts over {maximum:,.0f}, please write to us: we will send an invoice.",
            )
        data["amount"] = amount
        if data.get("show_on_wall") and not data.get("public_name", "").strip():
            self.add_error("public_name", "Type the name to show, or untick the donor wall box.")
        data["public_name"] = data.get("public_name", "").strip()
        return data


def gift_label(amount: str, monthly: bool) -> str:
    """ "Give €42 every month", "Give €25 once", or "Give" while no amount is chosen."""
    if not amount:
        return "Give"
    return f"Give {amount} {'every month' if monthly else 'once'}"


class ManageLinkForm(forms.Form):
    email = forms.EmailField(label="The e-mail address you gave with")
