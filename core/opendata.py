"""Open data downloads: tidy, typed CSV files and the Frictionless Data Package descriptors
(``datapackage.json``, a Table Schema per CSV) that describe them.

One kind of row per file; a number is a number (no unit, no ``%``, no prose); a date is
ISO 8601; a boolean is ``true`` or ``false``; an empty cell is a missing value, the only
one (``missingValues: [""]``). A figure withheld under an anonymity rule is an empty cell
with a ``<field>_withheld`` boolean beside it. ``pandas.read_csv(url)`` then gives numeric
columns for counts, shares and amounts, and ``parse_dates=`` the schema's date fields.
"""

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.http import HttpResponse

MISSING_VALUES = [""]
PROFILE = "data-package"
TABULAR = "tabular-data-resource"


@dataclass(frozen=True)
class Field:
    """A column of a CSV download and its Table Schema field descriptor."""

    name: str
    type: str  # Table Schema: string, integer, number, boolean, date, datetime, year, array, object
    description: str
    unit: str = ""  # not in the Table Schema standard: an extra property readers may show
    enum: tuple[str, ...] = ()
    required: bool = False
    minimum: int | None = None

    def descriptor(self) -> dict[str, object]:
        field: dict[str, object] = {
            "name": self.name,
            "type": self.type,
            "description": self.description,
        }
        if self.unit:
            field["unit"] = self.unit
        constraints: dict[str, object] = {}
        if self.required:
            constraints["required"] = True
        if self.enum:
            constraints["enum"] = list(self.enum)
        if self.minimum is not None:
            constraints["minimum"] = self.minimum
        if constraints:
            field["constraints"] = constraints
        return field


def withheld(field: str, rule: str) -> Field:
    """The boolean column beside a count that an anonymity rule may withhold."""
    return Field(
        f"{field}_withheld",
        "boolean",
        f"true where `{field}` is withheld (the cell is then empty): {rule}",
        required=True,
    )


def cell(value: object) -> str:
    """One value as a CSV cell: None empty, booleans true/false, dates ISO 8601, lists and
    dicts as JSON, Decimal amounts as written (two places)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=isinstance(value, dict), ensure_ascii=False)
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    return str(value)


def csv_text(fields: list[Field], rows: Iterable[Iterable[object]]) -> str:
    """The header row (the field names) and the rows, nothing before them."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([field.name for field in fields])
    writer.writerows([cell(value) for value in row] for row in rows)
    return buffer.getvalue()


def csv_response(
    filename: str, fields: list[Field], rows: Iterable[Iterable[object]]
) -> HttpResponse:
    response = HttpResponse(csv_text(fields, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def schema(fields: list[Field]) -> dict[str, object]:
    return {"fields": [field.descriptor() for field in fields], "missingValues": MISSING_VALUES}


def resource(
    name: str,
    path: str,
    title: str,
    description: str,
    fields: list[Field],
    *,
    sha256: str = "",
    size: int | None = None,
) -> dict[str, object]:
    """A tabular data resource: one CSV and its Table Schema (and, for a file that never
    changes, its SHA-256 and size)."""
    found: dict[str, object] = {
        "name": name,
        "path": path,
        "profile": TABULAR,
        "title": title,
        "description": description,
        "format": "csv",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "schema": schema(fields),
    }
    if sha256:
        found["hash"] = f"sha256:{sha256}"
    if size is not None:
        found["bytes"] = size
    return found


def package(
    name: str,
    title: str,
    description: str,
    resources: list[dict[str, object]],
    licences: list[dict[str, str]],
) -> dict[str, object]:
    return {
        "profile": PROFILE,
        "name": name,
        "title": title,
        "description": description,
        "licenses": licences,
        "resources": resources,
    }


def descriptor_text(descriptor: dict[str, object]) -> str:
    """A descriptor as published (stable key order, so a stored one has one checksum)."""
    return json.dumps(descriptor, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def descriptor_response(descriptor: dict[str, object]) -> HttpResponse:
    return HttpResponse(descriptor_text(descriptor), content_type="application/json")
