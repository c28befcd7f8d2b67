from django.contrib import admin, messages

from releases import services
from releases.models import Release, ReleaseFile, Series


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["version", "name", "status", "support_type", "first_release_date", "eol_date",
                    "enterprise_eos_date"]  # fmt: skip
    list_filter = ["status", "support_type"]
    search_fields = ["version", "name"]


class ReleaseFileInline(admin.TabularInline):
    model = ReleaseFile
    extra = 0
    fields = [
        "os",
        "architecture",
        "package_type",
        "file_name",
        "path",
        "size",
        "sha256",
        "sha512",
        "signature_path",
        "order",
    ]


@admin.register(Release)
class ReleaseAdmin(admin.ModelAdmin):
    list_display = ["version", "series", "maturity", "release_date", "is_published", "announcement"]
    list_filter = ["series", "maturity", "is_published"]
    search_fields = ["version"]
    list_select_related = ["series", "announcement"]
    inlines = [ReleaseFileInline]
    readonly_fields = ["announcement"]
    actions = ["publish_and_announce"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if obj.is_published:
            services.publish_release(obj)

    @admin.action(description="Publish and announce in the news", permissions=["change"])
    def publish_and_announce(self, request, queryset):
        for release in queryset.select_related("series"):
            services.publish_release(release)
        self.message_user(
            request, f"{queryset.count()} releases published and announced.", messages.SUCCESS
        )
