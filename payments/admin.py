from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from payments.models import Dispute, Payment, Refund, StripeEvent


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # not subscriptable at run time
    """Rows Stripe's events write: staff read them, nobody edits them here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(StripeEvent)
class StripeEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # not subscriptable at run time
    list_display = ["event_id", "type", "outcome", "received_at"]
    list_filter = ["type", "outcome"]
    search_fields = ["event_id"]
    readonly_fields = ["event_id", "type", "outcome", "reason", "received_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class RefundInline(admin.TabularInline):  # type: ignore[type-arg]  # not subscriptable at run time
    model = Refund
    extra = 0
    fields = readonly_fields = ("stripe_charge_id", "amount", "currency", "refunded_at")

    def has_add_permission(self, request: HttpRequest, obj: Payment | None = None) -> bool:
        return False


class DisputeInline(admin.TabularInline):  # type: ignore[type-arg]  # not subscriptable at run time
    model = Dispute
    extra = 0
    fields = readonly_fields = ("stripe_id", "amount", "currency", "status", "opened_at")

    def has_add_permission(self, request: HttpRequest, obj: Payment | None = None) -> bool:
        return False


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["paid_at", "stripe_id", "paid_for", "amount", "taken_back", "currency"]
    list_filter = ["content_type", "currency", "is_demo"]
    search_fields = ["stripe_id", "payment_intent_id", "charge_id"]
    inlines = [RefundInline, DisputeInline]


@admin.register(Refund)
class RefundAdmin(ReadOnlyAdmin):
    list_display = ["refunded_at", "stripe_charge_id", "payment", "amount", "currency"]
    search_fields = ["stripe_charge_id", "payment_intent_id", "invoice_id"]


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ["opened_at", "stripe_id", "payment", "amount", "currency", "status"]
    search_fields = ["stripe_id", "charge_id", "payment_intent_id"]
