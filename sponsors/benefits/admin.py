from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import FileResponse, Http404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control

from core.forms import PrivateFileInput
from sponsors.benefits import services
from sponsors.benefits.models import Benefit, Delivery


@admin.register(Benefit)
class BenefitAdmin(admin.ModelAdmin):
    list_display = ["name", "tier", "asset", "due_days", "order"]
    list_filter = ["tier__year", "tier__programme", "asset"]
    search_fields = ["name", "tier__name"]


class OverdueFilter(admin.SimpleListFilter):
    title = "due"
    parameter_name = "due"

    def lookups(self, request, model_admin):
        return [("overdue", "Overdue"), ("30", "Due within 30 days")]

    def queryset(self, request, queryset):
        today = timezone.localdate()
        if self.value() == "overdue":
            return queryset.outstanding().filter(due_on__lt=today)
        if self.value() == "30":
            return queryset.due_by(today + timedelta(days=30))
        return queryset


class DeliveryForm(forms.ModelForm):
    class Meta:
        model = Delivery
        fields = [
            "sponsorship",
            "benefit",
            "state",
            "due_on",
            "asset_file",
            "asset_text",
            "asset_url",
            "evidence_url",
            "evidence_file",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        url = reverse("admin:benefits_delivery_evidence", args=[self.instance.pk or 0])
        self.fields["evidence_file"].widget = PrivateFileInput(url=url)

    def clean(self) -> dict[str, Any]:
        """A state changes here only as one of ``Delivery.VERBS`` would move it."""
        super().clean()
        cleaned = self.cleaned_data
        before, after = self.instance.state, cleaned.get("state")
        moves = {(s, t) for v in Delivery.VERBS.values() for s in v.sources for t in v.targets}
        if self.instance.pk and after and after != before and (before, after) not in moves:
            labels = dict(Delivery.State.choices)
            raise forms.ValidationError(
                f"A delivery does not go from {labels[before]} to {labels[after]}."
            )
        delivered = after == Delivery.State.DELIVERED
        if delivered and not (cleaned.get("evidence_url") or cleaned.get("evidence_file")):
            raise forms.ValidationError(
                "A benefit is delivered only with evidence: a link or a file showing it given."
            )
        return cleaned


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    """Staff's view of what is still owed to sponsors, across all of them."""

    list_display = ["benefit", "organisation", "state", "due_on", "overdue", "has_asset"]
    list_filter = ["state", OverdueFilter, "benefit__tier__programme", "benefit__tier__year"]
    search_fields = ["sponsorship__organisation__name", "benefit__name"]
    list_select_related = ["benefit", "sponsorship__organisation"]
    readonly_fields = ["submitted_at", "delivered_at", "delivered_by", "reminded_on"]
    form = DeliveryForm
    actions = ["mark_delivered"]

    @admin.display(description="Organisation", ordering="sponsorship__organisation__name")
    def organisation(self, delivery):
        return delivery.sponsorship.organisation.name

    @admin.display(boolean=True)
    def overdue(self, delivery):
        return delivery.is_overdue

    @admin.display(boolean=True, description="Asset received")
    def has_asset(self, delivery):
        return bool(delivery.asset_file or delivery.asset_text or delivery.asset_url)

    @admin.action(description="Mark the selected benefits delivered", permissions=["change"])
    def mark_delivered(self, request, queryset):
        marked, refused = services.mark_delivered(list(queryset), request.user)
        if marked:
            self.message_user(request, f"{marked} benefit(s) marked delivered.", messages.SUCCESS)
        if refused:
            self.message_user(
                request,
                f"{refused} benefit(s) not marked delivered: add the evidence first (a link "
                "or a file showing the benefit given).",
                messages.ERROR,
            )

    def get_urls(self):
        evidence = self.admin_site.admin_view(self.evidence_view)
        return [
            path("<int:pk>/evidence/", evidence, name="benefits_delivery_evidence"),
            *super().get_urls(),
        ]

    def evidence_view(self, request, pk):
        """The evidence file, to staff who may view deliveries (kept in the private folder)."""
        delivery = Delivery.objects.filter(pk=pk).first()
        if delivery is None or not delivery.evidence_file or not self.has_view_permission(request):
            raise Http404("No evidence file")
        name = delivery.evidence_file.name.rsplit("/", 1)[-1]
        response = FileResponse(
            delivery.evidence_file.open("rb"), as_attachment=True, filename=name
        )
        patch_cache_control(response, private=True, no_store=True)
        return response
