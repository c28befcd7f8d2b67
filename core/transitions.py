"""The one way a status changes.

A model whose ``status`` follows rules declares them on the class: ``TRANSITIONS`` maps each
status to the statuses it may go to, and its audit rows are reached as ``events`` (a model with
``from_status``, ``to_status``, ``actor`` and ``note``). ``move`` checks the change against the
table, saves the object and writes the audit row, in the caller's transaction.

A model whose moves have names declares ``VERBS`` instead, each a ``Verb`` (the statuses it
starts from and the one it reaches): ``OutboxItem``'s ``withdraw`` or ``retry``,
``RawReport``'s ``accept`` or ``reject``. ``step`` moves one object by a verb, in memory,
for a caller that saves it (alone or in bulk); ``step_all`` moves every row of a queryset
the verb applies to, in one update. Every refusal is a ``TransitionRefused``.
"""

from dataclasses import dataclass


class TransitionRefused(ValueError):
    """The model's ``TRANSITIONS`` table does not allow the change."""


def may_move(obj, status: str) -> bool:
    return status in type(obj).TRANSITIONS.get(obj.status, ())


def move(obj, status: str, *, actor=None, note: str = "", **audit):
    """Move ``obj`` to ``status``, save it (with whatever else the caller changed) and record
    the change; ``audit``: more fields of the audit row. Raises TransitionRefused, changing
    nothing, when the table does not allow it. Returns the audit row."""
    if not may_move(obj, status):
        labels = dict(type(obj)._meta.get_field("status").choices)
        raise TransitionRefused(
            f"A {type(obj)._meta.verbose_name} cannot go from {labels[obj.status]} "
            f"to {labels[status]}."
        )
    from_status = obj.status
    obj.status = status
    obj.save()
    return obj.events.create(
        from_status=from_status, to_status=status, actor=actor, note=note, **audit
    )


@dataclass(frozen=True)
class Verb:
    """A named move: from any of ``sources`` to ``target``."""

    sources: frozenset[str]
    target: str


def verb(*sources: str, to: str) -> Verb:
    return Verb(frozenset(sources), to)


def _verb(model, name: str) -> Verb:
    try:
        return model.VERBS[name]
    except KeyError:
        raise TransitionRefused(
            f"A {model._meta.verbose_name} has no move named {name!r}."
        ) from None


def may(obj, name: str) -> bool:
    return obj.status in _verb(type(obj), name).sources


def step(obj, name: str) -> str:
    """Move ``obj`` by the verb ``name`` of its model's ``VERBS``, in memory: the caller
    saves it. Returns the status it left; raises TransitionRefused, changing nothing, when
    the verb does not start from the object's status."""
    move_by = _verb(type(obj), name)
    if obj.status not in move_by.sources:
        labels = dict(type(obj)._meta.get_field("status").choices)
        raise TransitionRefused(
            f"Cannot {name.replace('_', ' ')} a {type(obj)._meta.verbose_name} "
            f"that is {labels.get(obj.status, obj.status)}."
        )
    from_status, obj.status = obj.status, move_by.target
    return from_status


def step_all(queryset, name: str, **changes) -> int:
    """Move every row of ``queryset`` that the verb ``name`` starts from, in one update
    (with ``changes`` to other fields); rows in any other status are left as they are.
    Returns how many moved."""
    move_by = _verb(queryset.model, name)
    return queryset.filter(status__in=move_by.sources).update(status=move_by.target, **changes)
