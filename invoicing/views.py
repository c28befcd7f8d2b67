"""An issued document opened by its signed link (no account needed): the page says what
is owed and how to pay it; the PDF is the document itself. An expired link (the site's,
older than DOCUMENT_LINK_MAX_AGE_DAYS) answers 410 with a button that sends a fresh one
to the address the document was issued to."""

from datetime import date

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from invoicing import mail, pdf, services
from invoicing.models import IssuedDocument
from invoicing.signing import document_id, expired_document_id


class LinkExpired(Exception):
    def __init__(self, document: IssuedDocument) -> None:
        self.document = document


def _document(token: str) -> IssuedDocument:
    pk = document_id(token)
    if pk is not None:
        return get_object_or_404(IssuedDocument, pk=pk)
    expired = expired_document_id(token)
    if expired is None:
        raise Http404("This link is not valid.")
    raise LinkExpired(get_object_or_404(IssuedDocument, pk=expired))


def _expired(request: HttpRequest, token: str, document: IssuedDocument) -> HttpResponse:
    """The expired link's page; its button (a POST) sends a fresh link."""
    can_send = bool(mail.issued_to(document))
    sent = can_send and request.method == "POST"
    if sent:
        services.send_fresh_link(document)
    context = {
        "doc": document,
        "can_send": can_send,
        "sent": sent,
        "days": settings.DOCUMENT_LINK_MAX_AGE_DAYS,
        "action": reverse("invoicing:document", args=[token]),
    }
    return render(request, "invoicing/link_expired.html", context, status=200 if sent else 410)


@require_http_methods(["GET", "HEAD", "POST"])
def document_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        doc = _document(token)
    except LinkExpired as expired:
        return _expired(request, token, expired.document)
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


@require_http_methods(["GET", "HEAD"])
def document_pdf(request: HttpRequest, token: str) -> HttpResponse:
    try:
        return pdf.pdf_response(_document(token))
    except LinkExpired as expired:
        return _expired(request, token, expired.document)
