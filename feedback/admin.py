from django.contrib import admin, messages
from django.utils.html import format_html

from feedback.models import RawReport, Report, Server, TestTrafficRule
from feedback.services import processing


@admin.register(RawReport)
class RawReportAdmin(admin.ModelAdmin):
    list_display = ["id", "received_at", "path", "size", "status", "is_test", "is_resend"]
    list_filter = ["status", "is_test", "is_resend", "path"]
    search_fields = ["sha256", "rejection_reason"]
    date_hierarchy = "received_at"
    actions = ["reprocess"]
    readonly_fields = [
        "received_at",
        "path",
        "size",
        "sha256",
        "is_test",
        "is_resend",
        "country",
        "status",
        "rejection_reason",
        "processed_at",
        "report_text",
    ]
    exclude = ["body"]

    def has_add_permission(self, request):
        return False

    def changelist_view(self, request, extra_context=None):
        """Above the list: how many reports wait to be processed, and since when."""
        pending = RawReport.objects.pending()
        extra_context = {
            **(extra_context or {}),
            "pending_count": pending.count(),
            "oldest_pending": pending.order_by("id").values_list("received_at", flat=True).first(),
        }
        return super().changelist_view(request, extra_context)

    @admin.display(description="Report as received")
    def report_text(self, obj):
        text = bytes(obj.body).decode("utf-8", errors="replace")
        return format_html('<pre style="max-height:40rem;overflow:auto">{}</pre>', text)

    @admin.action(description="Parse the selected reports again", permissions=["change"])
    def reprocess(self, request, queryset):
        result = processing.reprocess(list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            f"{result.processed} processed, {result.rejected} rejected.",
            messages.SUCCESS if not result.rejected else messages.WARNING,
        )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "received_at",
        "kind",
        "server",
        "version",
        "os",
        "architecture",
        "is_test",
    ]
    list_filter = ["kind", "is_test", "os", "architecture", "version_major", "version_minor"]
    search_fields = ["server__uid", "version", "distribution"]
    date_hierarchy = "received_at"
    list_select_related = ["server"]
    raw_id_fields = ["raw", "server"]
    actions = ["mark_labels_as_test_traffic"]

    def has_add_permission(self, request):
        return False

    def has_mark_test_permission(self, request):
        return request.user.has_perm("feedback.add_testtrafficrule")

    @admin.action(
        description="Mark the labels (FEEDBACK_USER_INFO) of the selected reports as test traffic",
        permissions=["mark_test"],
    )
    def mark_labels_as_test_traffic(self, request, queryset):
        labels = {label.strip() for label in queryset.values_list("user_info", flat=True)}
        _mark(self, request, TestTrafficRule.Kind.LABEL, labels - {""})


@admin.register(Server)
class ServerAdmin(admin.ModelAdmin):
    list_display = ["uid", "first_seen", "last_seen", "latest_version", "reports_count"]
    search_fields = ["uid", "latest_version"]
    date_hierarchy = "last_seen"
    actions = ["mark_as_test_traffic"]

    def has_add_permission(self, request):
        return False

    def has_mark_test_permission(self, request):
        return request.user.has_perm("feedback.add_testtrafficrule")

    @admin.action(
        description="Mark the selected servers as test traffic", permissions=["mark_test"]
    )
    def mark_as_test_traffic(self, request, queryset):
        _mark(
            self, request, TestTrafficRule.Kind.SERVER, set(queryset.values_list("uid", flat=True))
        )


def _mark(model_admin, request, kind, values):
    for value in sorted(values):
        TestTrafficRule.objects.get_or_create(
            kind=kind, value=value, defaults={"note": f"marked by {request.user}"}
        )
    added, _ = processing.apply_test_traffic_rules()
    model_admin.message_user(
        request,
        f"{len(values)} marked as test traffic; {added} more reports left out of the public "
        "figures (the statistics are counted again within minutes).",
        messages.SUCCESS,
    )


@admin.register(TestTrafficRule)
class TestTrafficRuleAdmin(admin.ModelAdmin):
    """Servers and report labels that are test traffic: every change re-marks the reports."""

    list_display = ["kind", "value", "note", "created_at"]
    list_filter = ["kind"]
    search_fields = ["value", "note"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._apply(request)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        self._apply(request)

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        self._apply(request)

    def _apply(self, request):
        added, removed = processing.apply_test_traffic_rules()
        self.message_user(
            request,
            f"{added} reports newly marked as test traffic, {removed} no longer; the public "
            "figures are counted again within minutes.",
        )
