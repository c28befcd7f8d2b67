from django.contrib import admin

from donations.models import Donation, FundingGoal, Gift, Refund


class GiftInline(admin.TabularInline):
    model = Gift
    extra = 0
    can_delete = False
    readonly_fields = ["stripe_id", "amount", "currency", "paid_at", "receipt_url"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Donation)
class DonationAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "email",
        "amount",
        "currency",
        "frequency",
        "status",
        "show_on_wall",
    ]
    list_filter = ["status", "frequency", "currency", "show_on_wall"]
    search_fields = ["email", "public_name", "stripe_customer_id", "stripe_subscription_id"]
    readonly_fields = [
        "reference",
        "email",
        "user",
        "amount",
        "currency",
        "frequency",
        "status",
        "stripe_checkout_session_id",
        "stripe_customer_id",
        "stripe_subscription_id",
        "stripe_payment_intent_id",
        "created_at",
        "updated_at",
    ]
    fields = [*readonly_fields, "public_name", "show_on_wall"]
    inlines = [GiftInline]
    date_hierarchy = "created_at"


@admin.register(Refund)
class RefundAdmin(admin.ModelAdmin):
    list_display = ["refunded_at", "stripe_charge_id", "donation", "amount", "currency"]
    readonly_fields = [field.name for field in Refund._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(FundingGoal)
class FundingGoalAdmin(admin.ModelAdmin):
    list_display = ["year", "amount", "currency", "description"]
