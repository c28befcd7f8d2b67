"""The one way a status changes: by a named move, a verb.

A model with a lifecycle declares ``VERBS`` on the class, each a ``Verb`` built by ``verb``:
the statuses it starts from and the one it reaches (``Sponsorship``'s ``approve`` or
``cancel``, ``Run``'s ``publish``, ``OutboxItem``'s ``retry``). A verb that goes back to
where the object was (``Sponsorship``'s ``undo_cancel``) names the statuses it may reach,
and its caller says which. The field is ``status`` unless the model names another in
``STATUS_FIELD``.

- ``apply`` moves one object, saves it (with whatever else the caller changed) and writes
  its audit row through ``record``, in the caller's transaction: for a history people read.
- ``record`` is the one writer of audit rows, reached as ``obj.events`` (a model with
  ``from_status``, ``to_status``, ``actor``, ``note`` and the time): a move's (from
  ``apply``), an object's first status (``from_status=""``), or a change people should
  read that moves no status (an invoice issued, a renewal stopped).
- ``step`` moves one object in memory, for a caller that saves it (alone or in bulk) and
  keeps no audit row (an outbox item's attempts are its history).
- ``step_all`` moves every row of a queryset the verb starts from, in one update.
- ``may`` answers whether a verb starts from the object's status.

Every refusal is a ``TransitionRefused``, and a refused move changes nothing.
"""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Field, Manager, Model, QuerySet


class TransitionRefused(ValueError):
    """The move is not allowed now; the message says why, in words a person reads."""


@dataclass(frozen=True)
class Verb:
    """A named move: from any of ``sources`` to one of ``targets`` (usually just one)."""

    sources: frozenset[str]
    targets: frozenset[str]


def verb(*sources: str, to: str | tuple[str, ...]) -> Verb:
    """``verb(A, B, to=C)``; ``to`` is a tuple when the caller chooses the target."""
    return Verb(frozenset(sources), frozenset((to,) if isinstance(to, str) else to))


def field(model: type[Model]) -> str:
    return str(getattr(model, "STATUS_FIELD", "status"))


def _verb(model: type[Model], name: str) -> Verb:
    try:
        verbs: dict[str, Verb] = model.VERBS  # type: ignore[attr-defined]  # each lifecycle's
        return verbs[name]
    except KeyError:
        raise TransitionRefused(
            f"A {model._meta.verbose_name} has no move named {name!r}."
        ) from None


def _label(model: type[Model], status: str | None) -> str:
    status_field = model._meta.get_field(field(model))
    choices = status_field.choices if isinstance(status_field, Field) else None
    return str(dict(choices or ()).get(status, status))


def may(obj: Model, name: str) -> bool:
    return getattr(obj, field(type(obj))) in _verb(type(obj), name).sources


def step(obj: Model, name: str, *, to: str | None = None) -> str:
    """Move ``obj`` by the verb ``name``, in memory: the caller saves it. ``to``: the
    target, for a verb with several. Returns the status it left; raises TransitionRefused,
    changing nothing, when the verb does not start from the object's status."""
    model, attribute = type(obj), field(type(obj))
    move_by, status = _verb(model, name), getattr(obj, attribute)
    what = f"{name.replace('_', ' ')} a {model._meta.verbose_name}"
    if status not in move_by.sources:
        raise TransitionRefused(f"Cannot {what} that is {_label(model, status)}.")
    if to is None and len(move_by.targets) == 1:
        (to,) = move_by.targets
    if to not in move_by.targets:
        raise TransitionRefused(f"Cannot {what} to {_label(model, to)}.")
    setattr(obj, attribute, to)
    return str(status)


def apply(
    obj: Model,
    name: str,
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    note: str = "",
    to: str | None = None,
    only: tuple[str, ...] | None = None,
    **audit: object,
) -> Any:
    """Move ``obj`` by the verb ``name``, save it and write its audit row (``audit``: more
    fields of the row). ``only``: save the status and these fields alone (an object the
    caller did not lock or read afresh). Raises TransitionRefused, changing nothing.
    Returns the row."""
    from_status = step(obj, name, to=to)
    if only is None:
        obj.save()
    else:
        obj.save(update_fields=[field(type(obj)), *only])
    return record(obj, actor=actor, note=note, from_status=from_status, **audit)


def record(
    obj: Model,
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    note: str = "",
    from_status: str | None = None,
    **audit: object,
) -> Any:
    """Write ``obj``'s audit row for its current status: left ``from_status`` (``""``: the
    object was just made; None: it stayed where it is). Returns the row."""
    to_status = getattr(obj, field(type(obj)))
    events: Manager[Any] = obj.events  # type: ignore[attr-defined]  # each lifecycle's audit rows
    return events.create(
        from_status=to_status if from_status is None else from_status,
        to_status=to_status,
        actor=actor,
        note=note,
        **audit,
    )


def step_all(queryset: QuerySet[Any], name: str, **changes: object) -> int:
    """Move every row of ``queryset`` that the verb ``name`` starts from, in one update
    (with ``changes`` to other fields); rows in any other status are left as they are.
    Returns how many moved."""
    model, move_by = queryset.model, _verb(queryset.model, name)
    (target,) = move_by.targets
    in_sources = {f"{field(model)}__in": move_by.sources}
    return queryset.filter(**in_sources).update(**{field(model): target}, **changes)
