import gzip

from django.contrib import admin, messages
from django.utils.html import format_html

from feedback import services
from feedback.models import RawReport, Report, Server


@admin.register(RawReport)
class RawReportAdmin(admin.ModelAdmin):
    list_display = ["id", "received_at", "path", "size", "status", "is_test", "is_resend"]
    list_filter = ["status", "is_test", "is_resend", "path"]
    search_fields = ["sha256", "rejection_reason"]
    date_hierarchy = "received_at"
    actions = ["reprocess"]
    readonly_fields = [
        "received_at", "path", "size", "sha256", "is_test", "is_resend", "country", "status",
        "rejection_reason", "processed_at", "report_text",
    ]  # fmt: skip
    exclude = ["body_gz"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="Report as received")
    def report_text(self, obj):
        text = gzip.decompress(bytes(obj.body_gz)).decode("utf-8", errors="replace")
        return format_html('<pre style="max-height:40rem;overflow:auto">{}</pre>', text)

    @admin.action(description="Parse the selected reports again", permissions=["change"])
    def reprocess(self, request, queryset):
        result = services.reprocess(list(queryset.values_list("pk", flat=True)))
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

    def has_add_permission(self, request):
        return False


@admin.register(Server)
class ServerAdmin(admin.ModelAdmin):
    list_display = ["uid", "first_seen", "last_seen", "latest_version", "reports_count"]
    search_fields = ["uid", "latest_version"]
    date_hierarchy = "last_seen"

    def has_add_permission(self, request):
        return False
