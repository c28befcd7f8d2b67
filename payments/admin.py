from django.contrib import admin, messages

from payments import outbox
from payments.models import OutboxItem, StripeEvent


@admin.register(StripeEvent)
class StripeEventAdmin(admin.ModelAdmin):
    list_display = ["event_id", "type", "outcome", "received_at"]
    list_filter = ["type", "outcome"]
    search_fields = ["event_id"]
    readonly_fields = ["event_id", "type", "outcome", "reason", "received_at"]

    def has_add_permission(self, request):
        return False


@admin.register(OutboxItem)
class OutboxItemAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "attempts", "next_attempt_at", "last_error"]
    list_filter = ["status", "kind"]
    readonly_fields = [
        "kind",
        "payload",
        "idempotency_key",
        "status",
        "attempts",
        "last_error",
        "created_at",
        "next_attempt_at",
        "done_at",
    ]
    actions = ["retry"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Retry the selected stuck items", permissions=["change"])
    def retry(self, request, queryset):
        count = outbox.retry(queryset)
        messages.success(request, f"{count} stuck item(s) sent again.")
