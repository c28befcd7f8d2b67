from django.contrib import admin

from payments.models import StripeEvent


@admin.register(StripeEvent)
class StripeEventAdmin(admin.ModelAdmin):
    list_display = ["event_id", "type", "outcome", "received_at"]
    list_filter = ["type", "outcome"]
    search_fields = ["event_id"]
    readonly_fields = ["event_id", "type", "outcome", "reason", "received_at"]

    def has_add_permission(self, request):
        return False
