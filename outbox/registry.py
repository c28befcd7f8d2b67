"""Which function carries out each kind of side effect.

Apps register their kinds in ``AppConfig.ready()``; the outbox knows no app.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class SideEffect:
    function: Callable[..., object]
    keyed: bool  # called with idempotency_key=<the item's key>


_registry: dict[str, SideEffect] = {}


def register(kind: str, function: Callable[..., object], *, keyed: bool = False) -> None:
    _registry[kind] = SideEffect(function, keyed)


def side_effect(kind: str) -> SideEffect:
    """Raises LookupError for a kind nothing registered."""
    try:
        return _registry[kind]
    except KeyError:
        raise LookupError(f"no side effect is registered as {kind!r}") from None
