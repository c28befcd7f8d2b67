"""The PDF documents of the site (fpdf2): a page with the site's font, headings and lines.

Sponsors' agreements and receipts and donors' receipts are drawn with these."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from fpdf import FPDF


def document(title: str) -> FPDF:
    # Imported when a document is made, not when the site starts: fpdf2 adds about 0.4 s
    # to every process's start (docs/PERFORMANCE.md, "Start-up").
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_title(title)
    pdf.set_author(settings.SITE_NAME)
    pdf.set_creator(settings.SITE_NAME)
    font = Path(settings.PDF_FONT_PATH)
    if font.is_file():
        pdf.add_font("body", "", str(font))
        pdf.add_font("body", "B", str(font))
        pdf.set_font("body", size=11)
    else:  # the core font covers Latin-1 only; other characters print as "?"
        pdf.set_font("helvetica", size=11)
        pdf.core_fonts_encoding = "latin-1"
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_page()
    return pdf


def text(pdf: FPDF, value: str) -> str:
    """``value`` as the page's font can print it."""
    if pdf.font_family == "helvetica":
        value = value.replace("€", "EUR ").replace("−", "-").replace("–", "-")
        return value.encode("latin-1", "replace").decode("latin-1")
    return value


def heading(pdf: FPDF, title: str, size: int = 16) -> None:
    pdf.set_font(size=size)
    pdf.multi_cell(0, size * 0.55, text(pdf, title), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font(size=11)


def lines(pdf: FPDF, rows: list[str]) -> None:
    for line in rows:
        pdf.multi_cell(0, 6, text(pdf, line), new_x="LMARGIN", new_y="NEXT")
