"""The dispatch table: which app handles which Stripe event type.

Apps register their handlers in ``AppConfig.ready()``; payments knows no app by name.
A handler receives the event as ``validation`` read it (one ``events.StripeEventData``,
never the raw body) and either acts on it or raises ``Ignored`` when its object is not
one of its own (a sponsorship's invoice is not a donation's). Several apps may handle
one type.
"""

from collections import defaultdict
from collections.abc import Callable

from payments.events import StripeEventData

Handler = Callable[[StripeEventData], None]
_handlers: dict[str, list[Handler]] = defaultdict(list)
_subscription_owners: list[Callable[[str], bool]] = []


class Ignored(Exception):
    """A genuine event this handler has no use for; the reason is logged."""


def register(event_type: str, handler: Handler) -> None:
    if handler not in _handlers[event_type]:
        _handlers[event_type].append(handler)


def register_subscription_owner(knows: Callable[[str], bool]) -> None:
    """``knows(subscription_id)``: whether the app holds that subscription already (then
    an invoice of it needs no question to Stripe)."""
    if knows not in _subscription_owners:
        _subscription_owners.append(knows)


def subscription_known(subscription_id: str) -> bool:
    return any(knows(subscription_id) for knows in _subscription_owners)


def handlers_for(event_type: str) -> list[Handler]:
    return list(_handlers.get(event_type, ()))


def handled_types() -> list[str]:
    return sorted(event_type for event_type, handlers in _handlers.items() if handlers)
