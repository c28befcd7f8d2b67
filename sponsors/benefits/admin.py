from django.contrib import admin, messages
from django.utils import timezone

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
            return queryset.due_by(today + timezone.timedelta(days=30))
        return queryset


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    """Staff's view of what is still owed to sponsors, across all of them."""

    list_display = ["benefit", "organisation", "state", "due_on", "overdue", "has_asset"]
    list_filter = ["state", OverdueFilter, "benefit__tier__programme", "benefit__tier__year"]
    search_fields = ["sponsorship__organisation__name", "benefit__name"]
    list_select_related = ["benefit", "sponsorship__organisation"]
    readonly_fields = ["submitted_at", "delivered_at", "delivered_by", "reminded_on"]
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
        count = services.mark_delivered(list(queryset), request.user)
        self.message_user(request, f"{count} benefit(s) marked delivered.", messages.SUCCESS)
