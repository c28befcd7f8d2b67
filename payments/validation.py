"""What a correctly signed event must look like before anything reads it.

Stripe signs what it sends, but the signing secret may have leaked, and a test key's
events are anyone's to make: the checks here keep every value within what the models
can hold (lengths, characters, numbers) and the body within a sane depth, so a signed
event is either used or refused with a reason (400), never a 500 and never half stored.

A usable event is read once, into one ``events.StripeEventData``, which every handler
receives. Then the site's rules (``check_acceptable``): a receipt link must be an https address on
Stripe's hosts, and an event that pays or refunds must be in a currency the site sells,
pay a positive amount, refund no more than its charge, and say when it happened. An
event that breaks them is well formed but not acceptable: it is ``Rejected``, recorded
with the reason and acknowledged (200), so Stripe stops resending it.
"""

import re
import time
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

import ada_url
from django.conf import settings

from payments.events import NO_METADATA, Rejected, StripeEventData
from payments.models import EVENT_TYPE_MAX_LENGTH, STRIPE_ID_MAX_LENGTH
from payments.money import LARGEST_AMOUNT, from_minor_units, sold_currencies

MAX_DEPTH = 32  # Stripe's events nest about ten levels, expanded objects included
URL_MAX_LENGTH = 500  # receipt links are stored in URLFields of this length
EMAIL_MAX_LENGTH = 254
METADATA_KEY_MAX_LENGTH = 40  # Stripe's own limits on metadata
METADATA_VALUE_MAX_LENGTH = 500
# The largest amount an event may carry, in minor units (stored as whole minor units;
# money.LARGEST_AMOUNT then bounds what one payment may be in its currency).
MAX_MINOR_UNITS = 10**10 - 1
LATEST_TIMESTAMP = 253402300799  # 9999-12-31T23:59:59Z, the last moment a datetime holds

STRIPE_ID = re.compile(r"[A-Za-z0-9_]+")
EVENT_TYPE = re.compile(r"[a-z0-9_.]+")
# The fields of an event's object that handlers read, by what they must hold.
ID_FIELDS = (
    "id",
    "customer",
    "subscription",
    "payment_intent",
    "invoice",
    "charge",
    "latest_charge",
)
URL_FIELDS = ("hosted_invoice_url", "receipt_url")
AMOUNT_FIELDS = ("amount", "amount_paid", "amount_received", "amount_refunded")
EMAIL_FIELDS = ("email", "customer_email")


# Receipt links shown as "Stripe's receipt": https on Stripe's own hosts only.
STRIPE_RECEIPT_HOSTS = ("stripe.com",)  # invoice.stripe.com, pay.stripe.com, ...
# Payment and refund dates: Stripe began in 2010; a date ahead of now by more than this
# is refused too (Stripe dates an object when it makes it).
EARLIEST_TIMESTAMP = 1262304000  # 2010-01-01T00:00:00Z
CLOCK_SKEW_SECONDS = 3600
# The event types that pay, and the field of each that holds what was paid (the first of
# PAID_AMOUNT_FIELDS present, as the sponsorship handler reads it).
PAYMENT_TYPES = ("payment_intent.succeeded", "invoice.paid", "invoice.payment_succeeded")
PAID_AMOUNT_FIELDS = ("amount_received", "amount_paid", "amount")
CHARGE_REFUNDED = "charge.refunded"
DISPUTE_TYPES = (
    "charge.dispute.created",
    "charge.dispute.updated",
    "charge.dispute.closed",
    "charge.dispute.funds_withdrawn",
    "charge.dispute.funds_reinstated",
)
STATUS_MAX_LENGTH = 40


class Invalid(Exception):
    """The event cannot be used as it is; the message says why (sent back with the 400)."""


def _walk(value: object) -> Iterator[str]:
    """Every string in the body (keys too), refusing a body nested too deep. Iterative, so
    no depth can exhaust the stack."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Invalid(f"the body is nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            for key, child in item.items():
                yield key
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            yield item


def _check_strings(event: object) -> None:
    for text in _walk(event):
        if "\x00" in text:
            raise Invalid("a string holds a NUL character")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise Invalid("a string holds an unpaired surrogate") from error


def _check_id(where: str, value: object, *, required: bool = False) -> None:
    if isinstance(value, dict):  # an expanded object: its id is what is kept
        value = value.get("id")
    if value is None and not required:
        return
    if not isinstance(value, str) or not STRIPE_ID.fullmatch(value):
        raise Invalid(f"{where} is not a Stripe id")
    if len(value) > STRIPE_ID_MAX_LENGTH:
        raise Invalid(f"{where} is longer than {STRIPE_ID_MAX_LENGTH} characters")


def check_metadata(where: str, metadata: object) -> None:
    if metadata is None:
        return
    if not isinstance(metadata, dict):
        raise Invalid(f"{where} is not an object")
    for key, value in metadata.items():
        if len(key) > METADATA_KEY_MAX_LENGTH:
            raise Invalid(f"a key of {where} is longer than {METADATA_KEY_MAX_LENGTH} characters")
        if not isinstance(value, str) or len(value) > METADATA_VALUE_MAX_LENGTH:
            raise Invalid(f"{where}.{key} is not a text of at most {METADATA_VALUE_MAX_LENGTH}")


def _check_object(obj: dict[str, Any]) -> None:
    for field in ID_FIELDS:
        _check_id(f"data.object.{field}", obj.get(field))
    for field in URL_FIELDS:
        value = obj.get(field)
        if value is not None and not (isinstance(value, str) and len(value) <= URL_MAX_LENGTH):
            raise Invalid(f"data.object.{field} is not a URL of at most {URL_MAX_LENGTH}")
    for field in AMOUNT_FIELDS:
        value = obj.get(field)
        if value is not None and (type(value) is not int or not 0 <= value <= MAX_MINOR_UNITS):
            raise Invalid(f"data.object.{field} is not a whole number of cents we can hold")
    currency = obj.get("currency")
    if currency is not None and not (
        isinstance(currency, str)
        and len(currency) == 3
        and currency.isascii()
        and currency.isalpha()
    ):
        raise Invalid("data.object.currency is not an ISO currency code")
    status = obj.get("status")
    if status is not None and not (
        isinstance(status, str) and len(status) <= STATUS_MAX_LENGTH and STRIPE_ID.fullmatch(status)
    ):
        raise Invalid(f"data.object.status is not a status of at most {STATUS_MAX_LENGTH}")
    created = obj.get("created")
    if created is not None and not (type(created) is int and 0 <= created <= LATEST_TIMESTAMP):
        raise Invalid("data.object.created is not a Unix time")
    for field in EMAIL_FIELDS:
        value = obj.get(field)
        if value is not None and not (isinstance(value, str) and len(value) <= EMAIL_MAX_LENGTH):
            raise Invalid(f"data.object.{field} is not an address of at most {EMAIL_MAX_LENGTH}")
    check_metadata("data.object.metadata", obj.get("metadata"))
    lines = obj.get("lines")
    data = lines.get("data") if isinstance(lines, dict) else None
    for index, line in enumerate(data if isinstance(data, list) else []):
        if isinstance(line, dict):
            check_metadata(f"data.object.lines.data[{index}].metadata", line.get("metadata"))
    parent = obj.get("parent")
    for where, details in (
        ("data.object.subscription_details", obj.get("subscription_details")),
        (
            "data.object.parent.subscription_details",
            parent.get("subscription_details") if isinstance(parent, dict) else None,
        ),
    ):
        if isinstance(details, dict):
            _check_id(f"{where}.subscription", details.get("subscription"))
            check_metadata(f"{where}.metadata", details.get("metadata"))


def check_event(event: object) -> StripeEventData:
    """The usable event, read into one object; raises Invalid with the reason."""
    if not isinstance(event, dict):
        raise Invalid("the body is not a Stripe event object")
    _check_strings(event)
    event_id, event_type = event.get("id"), event.get("type")
    _check_id("id", event_id, required=True)
    if not isinstance(event_id, str):  # _check_id takes an expanded object; an event has none
        raise Invalid("id is not a Stripe id")
    if not (
        isinstance(event_type, str)
        and EVENT_TYPE.fullmatch(event_type)
        and len(event_type) <= EVENT_TYPE_MAX_LENGTH
    ):
        raise Invalid("type is not a Stripe event type")
    occurred = event.get("created")
    if occurred is not None and not (type(occurred) is int and 0 <= occurred <= LATEST_TIMESTAMP):
        raise Invalid("created is not a Unix time")
    data = event.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        raise Invalid("the event carries no data.object")
    _check_object(obj)
    return _read(event_id, event_type, obj, occurred)


def _stripe_id(value: object) -> str:
    """An id as checked by ``_check_id``: an expanded object gives its id."""
    if isinstance(value, dict):
        value = value.get("id")
    return value if isinstance(value, str) else ""


def _metadata(value: object) -> Mapping[str, str]:
    return MappingProxyType(dict(value)) if isinstance(value, dict) else NO_METADATA


def _subscription_details(obj: dict[str, Any]) -> dict[str, Any]:
    """An invoice's subscription details: top level until 2025 (``subscription_details``,
    which is null on one-off invoices), under ``parent.subscription_details`` since."""
    parent = obj.get("parent")
    details = parent.get("subscription_details") if isinstance(parent, dict) else None
    details = details or obj.get("subscription_details")
    return details if isinstance(details, dict) else {}


def _email(obj: dict[str, Any]) -> str:
    """The payer's address the object gives (an invoice's customer_email, a payment's
    receipt_email)."""
    for field in (*EMAIL_FIELDS, "receipt_email"):
        value = obj.get(field)
        if isinstance(value, str) and "@" in value:
            return value[:EMAIL_MAX_LENGTH]
    return ""


def _amounts(event_type: str, obj: dict[str, Any]) -> tuple[int | None, int | None]:
    """(what the event pays, takes or refunds; the refunded charge's amount)."""
    if event_type in PAYMENT_TYPES:
        return paid_amount(obj), None
    if event_type == CHARGE_REFUNDED:
        return obj.get("amount_refunded"), obj.get("amount")
    if event_type in DISPUTE_TYPES:
        return obj.get("amount"), None
    return None, None


def _charge(event_type: str, obj: dict[str, Any]) -> str:
    """The charge the object names; a charge's event names its own."""
    if event_type.startswith("charge.") and not event_type.startswith("charge.dispute."):
        return _stripe_id(obj.get("id"))
    return _stripe_id(obj.get("charge")) or _stripe_id(obj.get("latest_charge"))


def _read(
    event_id: str, event_type: str, obj: dict[str, Any], occurred: int | None = None
) -> StripeEventData:
    details = _subscription_details(obj)
    lines = obj.get("lines")
    data = lines.get("data") if isinstance(lines, dict) else None
    amount, charge_amount = _amounts(event_type, obj)
    status = obj.get("status")
    return StripeEventData(
        id=event_id,
        type=event_type,
        object_id=_stripe_id(obj.get("id")),
        created=obj.get("created"),
        occurred=occurred,
        amount=amount,
        charge_amount=charge_amount,
        currency=obj.get("currency") or "",
        customer=_stripe_id(obj.get("customer")),
        subscription=_stripe_id(obj.get("subscription")) or _stripe_id(details.get("subscription")),
        payment_intent=_stripe_id(obj.get("payment_intent")),
        invoice=_stripe_id(obj.get("invoice")),
        charge=_charge(event_type, obj),
        status=status if isinstance(status, str) else "",
        email=_email(obj),
        receipt_url=next((obj[field] for field in URL_FIELDS if obj.get(field)), ""),
        links=tuple((field, obj[field]) for field in URL_FIELDS if obj.get(field)),
        metadata=_metadata(obj.get("metadata")),
        subscription_metadata=_metadata(details.get("metadata")),
        line_metadata=tuple(
            _metadata(line.get("metadata"))
            for line in (data if isinstance(data, list) else [])
            if isinstance(line, dict)
        ),
    )


def browser_host(url: str) -> tuple[str, str] | None:
    """(scheme, host[:port]) of ``url`` as a browser reads it (the WHATWG URL standard, by
    ada-url: a backslash ends the host, ``%5C`` in a host is refused, the last ``@`` ends
    the user info); None for an address a browser would not follow, or one that carries a
    user name or password (never part of a link Stripe gives)."""
    try:
        parts = ada_url.parse_url(url)
    except ValueError:
        return None
    if parts["username"] or parts["password"]:
        return None
    return parts["protocol"].rstrip(":"), parts["host"]


def is_stripe_url(url: str) -> bool:
    """An https address on Stripe's hosts, read as a browser reads it; with a fake Stripe
    (STRIPE_API_BASE set, outside production) an address on the fake's host is accepted too."""
    if not isinstance(url, str) or any(ord(char) < 0x21 or ord(char) == 0x7F for char in url):
        return False  # browsers drop tabs and newlines and trim spaces: nothing to guess
    read = browser_host(url)
    if read is None:
        return False
    scheme, host = read
    if scheme == "https" and any(
        host == allowed or host.endswith("." + allowed) for allowed in STRIPE_RECEIPT_HOSTS
    ):
        return True
    if settings.STRIPE_API_BASE and not settings.PRODUCTION:
        return bool(host) and browser_host(settings.STRIPE_API_BASE) == (scheme, host)
    return False


def paid_amount(obj: dict[str, Any]) -> int | None:
    """What a payment object paid, in minor units: the first of PAID_AMOUNT_FIELDS present."""
    for field in PAID_AMOUNT_FIELDS:
        if obj.get(field) is not None:
            amount: int = obj[field]  # a whole number: checked by _check_object
            return amount
    return None


def _check_currency(event: StripeEventData) -> str:
    code = event.required_currency().upper()
    sold = sold_currencies()
    if code not in sold:
        raise Rejected(f"{code} is not a currency the site sells ({', '.join(sorted(sold))})")
    return code


def _check_positive(field: str, value: int | None, currency: str) -> int:
    if value is None or value <= 0:
        raise Rejected(f"{field} is not a positive amount")
    if from_minor_units(value, currency) > LARGEST_AMOUNT:
        raise Rejected(f"{field} is more than {LARGEST_AMOUNT} {currency}")
    return value


def _check_created(event: StripeEventData) -> None:
    if event.created is None:
        raise Rejected("it does not say when it happened (no created)")
    if not EARLIEST_TIMESTAMP <= event.created <= time.time() + CLOCK_SKEW_SECONDS:
        raise Rejected("its created date is before 2010 or in the future")


def check_acceptable(event: StripeEventData) -> None:
    """The site's rules for what an event may say: receipt links on Stripe's hosts, and the
    money rules of an event that pays or refunds. Raises Rejected with the reason.

    Runs on what ``check_event`` read, so every amount is a whole number, every currency
    three letters and every URL a text."""
    for field, link in event.links:
        if not is_stripe_url(link):
            raise Rejected(f"data.object.{field} is not an https address on Stripe's hosts")
    if event.type in PAYMENT_TYPES:
        currency = _check_currency(event)
        _check_positive("the amount paid", event.amount, currency)
        _check_created(event)
    elif event.type == CHARGE_REFUNDED:
        currency = _check_currency(event)
        refunded = _check_positive("amount_refunded", event.amount, currency)
        charged = _check_positive("the charge's amount", event.charge_amount, currency)
        if refunded > charged:
            raise Rejected("amount_refunded is more than the charge's amount")
        _check_created(event)
    elif event.type in DISPUTE_TYPES:
        currency = _check_currency(event)
        _check_positive("the disputed amount", event.amount, currency)
        _check_created(event)
