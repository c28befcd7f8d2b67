"""The test card form of fake mode, shared by every app that takes a payment."""

from django import forms


class CardForm(forms.Form):
    """Fake mode only (``gateway.fake_mode()``: STRIPE_API_BASE points at localstripe,
    which has no Checkout): the card fields go to the fake through this server. The live
    site sends the payer to Stripe Checkout instead and never sees a card. Sponsors and
    donors both pay with it; the fields are drawn by payments/card_fields.html."""

    number = forms.CharField(max_length=19, label="Card number")
    exp_month = forms.IntegerField(min_value=1, max_value=12, label="Expiry month")
    exp_year = forms.IntegerField(min_value=2024, max_value=2100, label="Expiry year")
    cvc = forms.CharField(max_length=4, label="CVC")

    def card(self) -> dict:
        data = self.cleaned_data
        return {
            "number": data["number"].replace(" ", ""),
            "exp_month": data["exp_month"],
            "exp_year": data["exp_year"],
            "cvc": data["cvc"],
        }
