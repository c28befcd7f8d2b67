"""The one way a status changes.

A model whose ``status`` follows rules declares them on the class: ``TRANSITIONS`` maps each
status to the statuses it may go to, and its audit rows are reached as ``events`` (a model with
``from_status``, ``to_status``, ``actor`` and ``note``). ``move`` checks the change against the
table, saves the object and writes the audit row, in the caller's transaction.
"""


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
