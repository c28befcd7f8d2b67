from django import forms
from django.contrib import admin
from django.contrib.contenttypes.admin import GenericTabularInline
from django.http import FileResponse, Http404
from django.urls import path, reverse
from django.utils.cache import patch_cache_control

from core.forms import PrivateFileInput
from donations.models import Donation, DonationEvent, Expense, FundingGoal, Gift
from donations.receipts import clean_receipt
from invoicing.links import admin_list


class GiftInline(GenericTabularInline):
    """The donation's payments (refunds and disputes: Payments in the admin)."""

    model = Gift
    extra = 0
    can_delete = False
    fields = readonly_fields = [
        "stripe_id",
        "amount",
        "taken_back",
        "currency",
        "paid_at",
        "receipt_url",
    ]

    def has_add_permission(self, request, obj=None):
        return False


class DonationEventInline(admin.TabularInline):
    """How the donation moved, and which Stripe object moved it."""

    model = DonationEvent
    extra = 0
    readonly_fields = ["from_status", "to_status", "actor", "note", "at"]
    can_delete = False

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
        "stripe_customer_id",
        "stripe_subscription_id",
        "stripe_payment_intent_id",
        "created_at",
        "updated_at",
        "receipts",
    ]
    fields = [*readonly_fields, "public_name", "show_on_wall"]

    @admin.display(description="Receipts")
    def receipts(self, obj):
        return admin_list(obj) if obj.pk else "-"

    inlines = [GiftInline, DonationEventInline]
    date_hierarchy = "created_at"


@admin.register(FundingGoal)
class FundingGoalAdmin(admin.ModelAdmin):
    list_display = ["year", "amount", "currency", "description"]


class ExpenseForm(forms.ModelForm):
    class Meta:
        model = Expense
        fields = ["spent_on", "category", "description", "amount", "currency", "receipt"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        url = reverse("admin:donations_expense_receipt", args=[self.instance.pk or 0])
        self.fields["receipt"].widget = PrivateFileInput(url=url)

    def clean_receipt(self):
        receipt = self.cleaned_data.get("receipt")
        if receipt and receipt != self.initial.get("receipt"):
            return clean_receipt(receipt)
        return receipt

    def clean_currency(self):
        return self.cleaned_data["currency"].upper()


@admin.register(Expense)
class ExpenseAdmin(admin.ModelAdmin):
    """Every expense is one ledger entry; /funding/ shows them by month and category."""

    form = ExpenseForm
    list_display = [
        "spent_on",
        "category",
        "description",
        "amount",
        "currency",
        "has_receipt",
        "is_demo",
    ]
    list_filter = ["category", "currency", "is_demo"]
    search_fields = ["description"]
    date_hierarchy = "spent_on"
    readonly_fields = ["recorded_by", "created_at"]

    @admin.display(boolean=True, description="Receipt")
    def has_receipt(self, expense):
        return bool(expense.receipt)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.recorded_by = request.user
        super().save_model(request, obj, form, change)

    def get_urls(self):
        receipt = self.admin_site.admin_view(self.receipt_view)
        return [
            path("<int:pk>/receipt/", receipt, name="donations_expense_receipt"),
            *super().get_urls(),
        ]

    def receipt_view(self, request, pk):
        """The receipt, to staff who may view the expense (it is in the private folder,
        which the web server does not serve)."""
        expense = Expense.objects.filter(pk=pk).first()
        if expense is None or not expense.receipt or not self.has_view_permission(request, expense):
            raise Http404("No receipt")
        name = expense.receipt.name.rsplit("/", 1)[-1]
        response = FileResponse(expense.receipt.open("rb"), as_attachment=True, filename=name)
        patch_cache_control(response, private=True, no_store=True)
        return response
