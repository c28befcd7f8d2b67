from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core.formatting import long_date, money
from invoicing.models import IssuedDocument
from invoicing.pdf import pdf_response


@admin.register(IssuedDocument)
class IssuedDocumentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # not subscriptable at run time
    """Every invoice and receipt issued, as issued: read-only, each opened as its PDF."""

    list_display = ["number", "kind", "issued_on", "amount", "subject_name", "state", "pdf_link"]
    list_filter = ["kind", "is_demo", "paid_by", "issued_on"]
    search_fields = ["number", "occasion"]
    date_hierarchy = "issued_on"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: IssuedDocument | None = None
    ) -> bool:
        return False

    def has_delete_permission(
        self, request: HttpRequest, obj: IssuedDocument | None = None
    ) -> bool:
        return False

    @admin.display(description="Amount")
    def amount(self, obj: IssuedDocument) -> str:
        return money(obj.total, obj.currency)

    @admin.display(description="For")
    def subject_name(self, obj: IssuedDocument) -> str:
        return str(obj.subject)

    @admin.display(description="State")
    def state(self, obj: IssuedDocument) -> str:
        if obj.kind == IssuedDocument.Kind.RECEIPT:
            return "Paid"
        return f"Paid {long_date(obj.paid_on)}" if obj.paid_on else "Open"

    @admin.display(description="PDF")
    def pdf_link(self, obj: IssuedDocument) -> SafeString:
        url = reverse("admin:invoicing_issueddocument_pdf", args=[obj.pk])
        return format_html('<a href="{}">{}.pdf</a>', url, obj.number)

    def get_urls(self) -> list[URLPattern]:
        pdf = self.admin_site.admin_view(self.pdf_view)
        return [
            path("<int:pk>/pdf/", pdf, name="invoicing_issueddocument_pdf"),
            *super().get_urls(),
        ]

    def pdf_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return pdf_response(get_object_or_404(IssuedDocument, pk=pk))
