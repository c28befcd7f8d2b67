"""An issued document opened by its signed link (no account needed): the page says what
is owed and how to pay it; the PDF is the document itself."""

from datetime import date

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from invoicing import pdf
from invoicing.models import IssuedDocument
from invoicing.signing import document_id


def _document(token: str) -> IssuedDocument:
    pk = document_id(token)
    if pk is None:
        raise Http404("This link is not valid.")
    return get_object_or_404(IssuedDocument, pk=pk)


def document_page(request, token):
    doc = _document(token)
    context = {
        "doc": doc,
        "issuer": doc.content["issuer"],
        "buyer_lines": pdf.party_lines(doc.content["buyer"]),
        "issuer_lines": pdf.party_lines(doc.content["issuer"]),
        "pdf_url": reverse("invoicing:pdf", args=[token]),
        "paid_on": date.fromisoformat(doc.content["paid"]["on"])
        if doc.content.get("paid")
        else None,
    }
    return render(request, "invoicing/document.html", context)


def document_pdf(request, token):
    return pdf.pdf_response(_document(token))
