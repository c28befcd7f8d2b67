"""The agreement text: the standard wording staff start from, and filling in its placeholders.

``{year}`` is the year of the tier's price list (``Tier.year``), never a term: terms are
named by their dates (``sponsors.terms``), in the agreement's PDF beside the text."""

from django.conf import settings

from core.formatting import money
from sponsors.models import tier_title

# Staff replace this in the admin (Agreement templates); it is the first version of a
# tier's agreement until they do.
STANDARD_TEXT = """\
## Sponsorship agreement

Between the **MariaDB Foundation** and **{organisation}** (the sponsor).

1. **Sponsorship.** The sponsor supports the foundation as a {tier} {programme}.
2. **Fee.** {price} for each term of one year, paid {payment}.
3. **Term.** The first term starts on the day the fee is paid and runs for one year, to the
   day before the same date a year later (a term starting on 29 February ends on
   28 February). Each renewal is the next term of one year, starting on the day after the
   term before ends, whatever day it is paid. The terms paid are listed with this agreement.
4. **Benefits.** The foundation provides the benefits of the {tier} tier listed with this
   agreement, by the dates shown there.
5. **Public recognition.** The sponsor's name, logo and website appear on the foundation's
   supporters page while the sponsorship is active.
6. **Independence.** The sponsorship gives no control over the foundation's technical
   decisions, which remain with the MariaDB community.
7. **Ending.** Either party may end the sponsorship in writing; fees already paid are not
   refunded unless the foundation does not provide the benefits.
"""


def payment_words() -> dict[str, str]:
    """How each payment method is worded in the agreement (and the forms that quote it)."""
    return {
        "card_annual": "by card, renewed every year until cancelled",
        "card_once": "by card, once",
        "invoice": f"against an invoice due in {settings.INVOICE_DUE_DAYS} days",
    }


def _programme_word(terms: dict) -> str:
    return "member" if terms.get("programme") == "member" else "sponsor"


class _Keep(dict):
    def __missing__(self, key):
        return "{" + key + "}"


def render(text: str, *, organisation: str, terms: dict, payment_method: str) -> str:
    """The agreement with its placeholders filled; unknown braces are left as written."""
    # "as a {tier} {programme}" would read "as a Corporate member member".
    text = text.replace("{tier} {programme}", "{tier_title}")
    values = _Keep(
        organisation=organisation,
        tier_title=tier_title(terms["tier"], _programme_word(terms)),
        tier=terms["tier"],
        programme=_programme_word(terms),
        year=terms["year"],
        price=money(terms["annual_price"], terms["currency"]),
        payment=payment_words().get(payment_method, payment_method),
    )
    try:
        return text.format_map(values)
    except (ValueError, IndexError, AttributeError):  # a stray "{" in the staff's text
        return text


def previews(text: str, terms: dict) -> list[tuple[str, str]]:
    """The agreement as the application page shows it before the organisation is named:
    one text per way to pay, (payment method, text)."""
    return [
        (
            method,
            render(text, organisation="[your organisation]", terms=terms, payment_method=method),
        )
        for method in payment_words()
    ]
