"""An issued invoice or receipt as a PDF, drawn from what was issued (``content``)."""

from datetime import date
from typing import TYPE_CHECKING, Any

from django.http import HttpResponse

from core.formatting import long_date, money
from core.pdf import document, heading, lines, text

if TYPE_CHECKING:
    from fpdf import FPDF
from invoicing.issuer import DEMO_NOTICE
from invoicing.models import IssuedDocument

COLUMN = 90
ROW = 6


def _day(value: str | date) -> str:
    if isinstance(value, str):
        value = date.fromisoformat(value)
    return long_date(value)


def party_lines(party: dict[str, Any]) -> list[str]:
    rows = [party.get("name", ""), *party.get("address", "").splitlines()]
    if party.get("business_id"):
        rows.append(f"Business id: {party['business_id']}")
    if party.get("vat_number"):
        rows.append(f"VAT number: {party['vat_number']}")
    if party.get("email"):
        rows.append(party["email"])
    return [row for row in rows if row]


def _side_by_side(pdf: "FPDF", left: list[str], right: list[str]) -> None:
    top = pdf.get_y()
    pdf.multi_cell(COLUMN, ROW, text(pdf, "\n".join(left)), new_x="LMARGIN", new_y="NEXT")
    bottom = pdf.get_y()
    pdf.set_xy(pdf.l_margin + COLUMN + 10, top)
    pdf.multi_cell(COLUMN, ROW, text(pdf, "\n".join(right)), new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(max(bottom, pdf.get_y()) + 4)


def _row(pdf: "FPDF", label: str, amount: str, *, size: int = 11) -> None:
    """One row of the table: the label wraps onto as many lines as it needs (a line names
    the organisation and the term it pays for), the amount stays on its first line."""
    pdf.set_font(size=size)
    width, label = pdf.epw - 45, text(pdf, label)
    height = ROW + 1
    found = pdf.multi_cell(width, height, label, dry_run=True, output="LINES")
    lines = len(found)  # type: ignore[arg-type]  # a list for output="LINES"
    if pdf.will_page_break(lines * height):
        pdf.add_page()
    top = pdf.get_y()
    pdf.multi_cell(width, height, label, border="B", new_x="RIGHT", new_y="TOP")
    pdf.cell(45, height, text(pdf, amount), align="R")
    pdf.set_xy(pdf.l_margin + width, top)
    pdf.cell(45, lines * height, "", border="B", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(size=11)


def how_to_pay(doc: IssuedDocument) -> list[str]:
    payment = doc.content["payment"]
    rows = [
        f"By bank transfer to {doc.content['issuer']['name']}:",
        f"IBAN {payment['iban']}, BIC {payment['bic']}",
        f"Reference to quote: {payment['reference']}",
    ]
    if payment.get("hosted_url"):
        rows.append(f"Or by card on Stripe's page: {payment['hosted_url']}")
    elif payment.get("online_note"):
        rows.append(payment["online_note"])
    return rows


def document_pdf(doc: IssuedDocument) -> bytes:
    content = doc.content
    title = f"{doc.get_kind_display()} {doc.number}"
    pdf = document(title)
    heading(pdf, title)
    if content["issuer"].get("demo"):
        lines(pdf, [DEMO_NOTICE])
    if content.get("demo"):
        lines(pdf, ["DEMO DATA: no money moved."])
    pdf.ln(2)
    _side_by_side(
        pdf, ["From:", *party_lines(content["issuer"])], ["To:", *party_lines(content["buyer"])]
    )
    facts = [f"{doc.get_kind_display()} number: {doc.number}", f"Date: {_day(doc.issued_on)}"]
    if doc.due_on:
        facts.append(f"Due date: {_day(doc.due_on)}")
    if content.get("paid"):
        facts.append(f"Paid on: {_day(content['paid']['on'])}, {content['paid']['how']}")
    lines(pdf, facts)
    pdf.ln(4)
    _row(pdf, "Description", "Amount")
    for line in content["lines"]:
        _row(pdf, line["description"], money(line["amount"], doc.currency))
    block = content.get("vat")
    if block:
        _row(pdf, "Net amount", money(block["net"], doc.currency))
        _row(pdf, block["label"], money(block["tax"], doc.currency))
    _row(pdf, "Total", money(doc.total, doc.currency), size=13)
    pdf.ln(3)
    notes = [note for note in ((block or {}).get("note"), content.get("no_vat_reason")) if note]
    if notes:
        lines(pdf, notes)
        pdf.ln(2)
    if doc.kind == IssuedDocument.Kind.INVOICE:
        if doc.paid_on:
            lines(pdf, [f"Paid on {_day(doc.paid_on)} ({doc.get_paid_by_display().lower()})."])
        else:
            heading(pdf, "How to pay", size=13)
            lines(pdf, how_to_pay(doc))
    return bytes(pdf.output())


def pdf_response(doc: IssuedDocument) -> HttpResponse:
    response = HttpResponse(document_pdf(doc), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{doc.number}.pdf"'
    return response


def parties(pdf: "FPDF", issuer: dict[str, Any], buyer: dict[str, Any]) -> None:
    """From and To, side by side (a donor's yearly statement opens with them too)."""
    _side_by_side(pdf, ["From:", *party_lines(issuer)], ["To:", *party_lines(buyer)])


def row(pdf: "FPDF", label: str, amount: str, *, size: int = 11) -> None:
    """One row of a document's table: a label that wraps, its amount on the right."""
    _row(pdf, label, amount, size=size)
