"""What a correctly signed event must look like before anything reads it.

Stripe signs what it sends, but the signing secret may have leaked, and a test key's
events are anyone's to make: the checks here keep every value within what the models
can hold (lengths, characters, numbers) and the body within a sane depth, so a signed
event is either used or refused with a reason (400), never a 500 and never half stored.
"""

import re

from payments.models import EVENT_TYPE_MAX_LENGTH, STRIPE_ID_MAX_LENGTH

MAX_DEPTH = 32  # Stripe's events nest about ten levels, expanded objects included
URL_MAX_LENGTH = 500  # receipt links are stored in URLFields of this length
EMAIL_MAX_LENGTH = 254
METADATA_KEY_MAX_LENGTH = 40  # Stripe's own limits on metadata
METADATA_VALUE_MAX_LENGTH = 500
# Amounts are stored in DecimalField(max_digits=10, decimal_places=2).
MAX_MINOR_UNITS = 10**10 - 1
LATEST_TIMESTAMP = 253402300799  # 9999-12-31T23:59:59Z, the last moment a datetime holds

STRIPE_ID = re.compile(r"[A-Za-z0-9_]+")
EVENT_TYPE = re.compile(r"[a-z0-9_.]+")
# The fields of an event's object that handlers read, by what they must hold.
ID_FIELDS = ("id", "customer", "subscription", "payment_intent", "invoice", "charge")
URL_FIELDS = ("hosted_invoice_url", "receipt_url")
AMOUNT_FIELDS = ("amount", "amount_paid", "amount_received", "amount_total", "amount_refunded")
EMAIL_FIELDS = ("email", "customer_email")


class Invalid(Exception):
    """The event cannot be used as it is; the message says why (sent back with the 400)."""


def _walk(value):
    """Every string in the body (keys too), refusing a body nested too deep. Iterative, so
    no depth can exhaust the stack."""
    stack = [(value, 1)]
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


def _check_strings(event):
    for text in _walk(event):
        if "\x00" in text:
            raise Invalid("a string holds a NUL character")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise Invalid("a string holds an unpaired surrogate") from error


def _check_id(where: str, value, *, required=False):
    if isinstance(value, dict):  # an expanded object: its id is what is kept
        value = value.get("id")
    if value is None and not required:
        return
    if not isinstance(value, str) or not STRIPE_ID.fullmatch(value):
        raise Invalid(f"{where} is not a Stripe id")
    if len(value) > STRIPE_ID_MAX_LENGTH:
        raise Invalid(f"{where} is longer than {STRIPE_ID_MAX_LENGTH} characters")


def _check_metadata(where: str, metadata):
    if metadata is None:
        return
    if not isinstance(metadata, dict):
        raise Invalid(f"{where} is not an object")
    for key, value in metadata.items():
        if len(key) > METADATA_KEY_MAX_LENGTH:
            raise Invalid(f"a key of {where} is longer than {METADATA_KEY_MAX_LENGTH} characters")
        if not isinstance(value, str) or len(value) > METADATA_VALUE_MAX_LENGTH:
            raise Invalid(f"{where}.{key} is not a text of at most {METADATA_VALUE_MAX_LENGTH}")


def _check_object(obj: dict):
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
    created = obj.get("created")
    if created is not None and not (type(created) is int and 0 <= created <= LATEST_TIMESTAMP):
        raise Invalid("data.object.created is not a Unix time")
    for where, holder in (
        ("data.object", obj),
        ("data.object.customer_details", obj.get("customer_details")),
    ):
        if isinstance(holder, dict):
            for field in EMAIL_FIELDS:
                value = holder.get(field)
                if value is not None and not (
                    isinstance(value, str) and len(value) <= EMAIL_MAX_LENGTH
                ):
                    raise Invalid(
                        f"{where}.{field} is not an address of at most {EMAIL_MAX_LENGTH}"
                    )
    _check_metadata("data.object.metadata", obj.get("metadata"))
    lines = obj.get("lines")
    data = lines.get("data") if isinstance(lines, dict) else None
    for index, line in enumerate(data if isinstance(data, list) else []):
        if isinstance(line, dict):
            _check_metadata(f"data.object.lines.data[{index}].metadata", line.get("metadata"))
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
            _check_metadata(f"{where}.metadata", details.get("metadata"))


def check_event(event) -> tuple[str, str, dict]:
    """(event id, type, data.object) of a usable event; raises Invalid with the reason."""
    if not isinstance(event, dict):
        raise Invalid("the body is not a Stripe event object")
    _check_strings(event)
    event_id, event_type = event.get("id"), event.get("type")
    _check_id("id", event_id, required=True)
    if not (
        isinstance(event_type, str)
        and EVENT_TYPE.fullmatch(event_type)
        and len(event_type) <= EVENT_TYPE_MAX_LENGTH
    ):
        raise Invalid("type is not a Stripe event type")
    data = event.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        raise Invalid("the event carries no data.object")
    _check_object(obj)
    return event_id, event_type, obj
