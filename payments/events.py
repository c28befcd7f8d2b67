"""A Stripe event as the apps' handlers receive it: read once, by one set of rules.

``payments.validation`` checks the signed body (``check_event``) and builds one
``StripeEventData`` from it; every handler of sponsors and donations reads this object,
never the raw dicts. Ids are Stripe ids (an expanded object gives its id), "" when the
object names none; amounts are whole minor units as Stripe sends them; a currency a
handler needs and the event lacks rejects the event (``Rejected``), it is never guessed.
"""

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# A database id in metadata: ASCII digits only (str.isdigit() also accepts "¹" and "٣",
# which int() refuses or reads), and short enough for a bigint.
METADATA_ID = re.compile(r"[0-9]{1,18}")
NO_METADATA: Mapping[str, str] = MappingProxyType({})


class Rejected(Exception):
    """A well-formed event the site does not accept (its money rules): recorded with this
    reason and acknowledged, so Stripe stops resending it. Handlers may raise it too."""


@dataclass(frozen=True)
class StripeEventData:
    id: str  # the event's
    type: str
    object_id: str  # data.object.id
    created: int | None  # data.object.created, a Unix time
    occurred: int | None = None  # the event's own created: when Stripe made it
    # What the event pays, takes or refunds, in minor units (None when it moves no money):
    # a payment's amount received or paid, a refund's amount, a dispute's amount.
    amount: int | None = None
    charge_amount: int | None = None  # charge.refunded: the amount of the charge
    currency: str = ""  # three letters as Stripe sends them; "" when the object names none
    customer: str = ""
    subscription: str = ""  # the object's, or an invoice's subscription details'
    payment_intent: str = ""
    invoice: str = ""
    charge: str = (
        ""  # the charge an invoice, payment intent or dispute names (a refund's: its own id)
    )
    status: str = ""  # the object's status (a dispute's "won", "lost", ...)
    email: str = ""  # the payer's address, "" when the object gives none
    receipt_url: str = ""  # an invoice's hosted page or a charge's receipt
    # Every such link the object gives, as (field, URL), for the site's rules.
    links: tuple[tuple[str, str], ...] = ()
    metadata: Mapping[str, str] = field(default_factory=lambda: NO_METADATA)
    # An invoice's subscription details' metadata, then its lines' (oldest Stripe
    # versions and localstripe put a subscription's metadata only there).
    subscription_metadata: Mapping[str, str] = field(default_factory=lambda: NO_METADATA)
    line_metadata: tuple[Mapping[str, str], ...] = ()

    def required_amount(self) -> int:
        if self.amount is None:
            raise Rejected("it names no amount")
        return self.amount

    def required_currency(self) -> str:
        if not self.currency:
            raise Rejected("it names no currency")
        return self.currency

    def _metadata_values(self, key: str, lines: bool) -> Iterator[str]:
        sources = (
            self.metadata,
            self.subscription_metadata,
            *(self.line_metadata if lines else ()),
        )
        for metadata in sources:
            if metadata.get(key):
                yield metadata[key]

    def metadata_text(self, key: str, *, lines: bool = False) -> str:
        """The first text ``key`` holds in the object's metadata, then its subscription's
        (and, with ``lines``, its invoice lines'), or ""."""
        return next(self._metadata_values(key, lines), "")

    def metadata_id(self, key: str, *, lines: bool = False) -> int | None:
        """The first database id ``key`` holds in the metadata, or None when it names none."""
        for text in self._metadata_values(key, lines):
            if METADATA_ID.fullmatch(text):
                return int(text)
        return None
