"""A readable line diff between two versions of a governance document."""

import difflib
from dataclasses import dataclass


@dataclass
class DiffLine:
    kind: str  # "same", "added" or "removed"
    text: str


def line_diff(old: str, new: str, context: int = 2) -> list[list[DiffLine]]:
    """Hunks of changed lines with a little context; each line says whether it was added or removed."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    hunks = []
    for group in matcher.get_grouped_opcodes(context):
        hunk = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                hunk += [DiffLine("same", line) for line in old_lines[i1:i2]]
                continue
            if tag in ("replace", "delete"):
                hunk += [DiffLine("removed", line) for line in old_lines[i1:i2]]
            if tag in ("replace", "insert"):
                hunk += [DiffLine("added", line) for line in new_lines[j1:j2]]
        hunks.append(hunk)
    return hunks
