from django.contrib import admin, messages
from django.contrib.contenttypes.admin import GenericTabularInline
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import ngettext

from core.formatting import long_date
from core.transitions import TransitionRefused
from invoicing.links import admin_list
from sponsors import supporters_cache
from sponsors.models import (
    AgreementTemplate,
    Invitation,
    Organisation,
    PaidTerm,
    Payment,
    Programme,
    Sponsorship,
    SponsorshipEvent,
    Tier,
)
from sponsors.services import applications, lifecycle, moderation, recording


@admin.register(Programme)
class ProgrammeAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "order"]


@admin.register(Tier)
class TierAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "programme",
        "year",
        "annual_price",
        "currency",
        "capacity",
        "order",
        "is_active",
    ]
    list_filter = ["programme", "year", "is_active"]
    list_editable = ["order", "is_active"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        supporters_cache.invalidate_supporters_page()


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "website", "billing_email", "has_pending_changes"]
    search_fields = ["name", "billing_email", "vat_id"]
    filter_horizontal = ["managers"]
    actions = ["approve_profile_changes"]
    readonly_fields = ["pending_changes", "stripe_customer_id"]

    @admin.display(boolean=True, description="Changes to review")
    def has_pending_changes(self, obj):
        return bool(obj.pending_changes)

    @admin.action(description="Publish the proposed profile changes", permissions=["change"])
    def approve_profile_changes(self, request, queryset):
        for organisation in queryset:
            moderation.approve_profile_change(organisation)
        self.message_user(request, f"{queryset.count()} profiles updated.", messages.SUCCESS)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        supporters_cache.invalidate_supporters_page()


class EventInline(admin.TabularInline):
    model = SponsorshipEvent
    extra = 0
    readonly_fields = ["from_status", "to_status", "actor", "note", "at", "undoable_until"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class PaidTermInline(admin.TabularInline):
    """The terms its payments bought; a term whose payment went back in full shows the
    day that happened (sponsors.services.recording.money_returned)."""

    model = PaidTerm
    extra = 0
    fields = readonly_fields = ("starts_on", "ends_on", "payment", "money_returned_on")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class PaymentInline(GenericTabularInline):
    """The sponsorship's payments (refunds and disputes: Payments in the admin)."""

    model = Payment
    extra = 0
    fields = readonly_fields = (
        "stripe_id",
        "amount",
        "taken_back",
        "currency",
        "paid_at",
        "receipt_url",
    )
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class YearFilter(admin.SimpleListFilter):
    title = "year"
    parameter_name = "year"

    def lookups(self, request, model_admin):
        years = sorted({t.year for t in Tier.objects.all()}, reverse=True)
        return [(str(y), str(y)) for y in years]

    def queryset(self, request, queryset):
        return queryset.filter(tier__year=self.value()) if self.value() else queryset


class ReturnedFilter(admin.SimpleListFilter):
    """The open sponsorships whose latest payment went back in full (refunded, or held or
    taken by a dispute): off the supporters page, for staff to look at (docs/sponsors.md,
    *Money returned*)."""

    title = "payment returned in full"
    parameter_name = "returned"

    def lookups(self, request, model_admin):
        return [("yes", "Refunded or lost to a dispute")]

    def queryset(self, request, queryset):
        if self.value() != "yes":
            return queryset
        return queryset.open().filter(pk__in=queryset.latest_payment_returned().values("pk"))


@admin.register(Sponsorship)
class SponsorshipAdmin(admin.ModelAdmin):
    list_display = ["organisation", "tier", "status", "payment_method", "paid_at", "ends_on"]
    list_filter = [
        "status",
        ReturnedFilter,
        "tier__programme",
        "tier",
        YearFilter,
        "payment_method",
    ]
    search_fields = ["organisation__name"]
    list_select_related = ["organisation", "tier__programme"]
    readonly_fields = [
        "status",
        "terms",
        "paid_at",
        # The paid time follows the terms its payments bought (PaidTermInline).
        "starts_on",
        "ends_on",
        "renewal_invoice_requested_for",
        "stripe_subscription_id",
        "stripe_payment_intent_id",
        "reminders_sent",
        "accepted_agreement",
        "invoices_and_receipts",
    ]
    inlines = [PaidTermInline, PaymentInline, EventInline]
    actions = ["approve", "reject", "cancel", "record_transfer"]

    @admin.display(description="Accepted agreement")
    def accepted_agreement(self, obj):
        """The agreement the sponsor accepted, as the sponsor reads it (PDF)."""
        if obj.pk is None or obj.accepted_at is None:
            return "None accepted"
        return format_html(
            '<a href="{}">Agreement accepted on {}</a> (PDF)',
            reverse("sponsors:agreement-pdf", args=[obj.pk]),
            long_date(timezone.localtime(obj.accepted_at).date()),
        )

    @admin.display(description="Invoices and receipts")
    def invoices_and_receipts(self, obj):
        return admin_list(obj) if obj.pk else "-"

    date_hierarchy = "created_at"

    def _each(self, request, queryset, action, done):
        ok = 0
        for sponsorship in queryset:
            try:
                action(sponsorship, request.user)
                ok += 1
            except TransitionRefused as error:
                self.message_user(request, f"{sponsorship}: {error}", messages.ERROR)
        if ok:
            counted = ngettext("%(n)d sponsorship", "%(n)d sponsorships", ok) % {"n": ok}
            self.message_user(request, f"{counted} {done}.", messages.SUCCESS)

    @admin.action(description="Approve the selected applications", permissions=["change"])
    def approve(self, request, queryset):
        self._each(request, queryset, lifecycle.approve, "approved")

    @admin.action(description="Reject the selected applications", permissions=["change"])
    def reject(self, request, queryset):
        self._each(request, queryset, lifecycle.reject, "rejected")

    @admin.action(description="Cancel the selected sponsorships", permissions=["change"])
    def cancel(self, request, queryset):
        self._each(request, queryset, lifecycle.cancel, "cancelled")

    @admin.action(
        description="Record the bank transfer that paid the open invoice (today)",
        permissions=["change"],
    )
    def record_transfer(self, request, queryset):
        self._each(request, queryset, recording.record_transfer, "paid by transfer")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["email", "organisation", "created_at", "accepted_at"]


@admin.register(AgreementTemplate)
class AgreementTemplateAdmin(admin.ModelAdmin):
    """Each tier's agreement. Saving a change makes a new version: sponsors who accepted an
    earlier one keep it, word for word."""

    list_display = ["tier", "version", "created_at", "created_by"]
    list_filter = ["tier__year", "tier__programme"]
    readonly_fields = ["version", "created_at", "created_by"]
    fields = ["tier", "text", "version", "created_at", "created_by"]

    def save_model(self, request, obj, form, change):
        if change and not form.has_changed():
            return
        applications.save_agreement_version(obj, request.user)
