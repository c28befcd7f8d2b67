from django.contrib import admin, messages
from django.utils import timezone

from releases.repoconfig.models import Availability, Distribution, DistributionRelease, Mirror
from releases.services import mirroring


@admin.register(Mirror)
class MirrorAdmin(admin.ModelAdmin):
    """Staff see each mirror's last health check; redirects skip mirrors down or behind."""

    list_display = [
        "mirror_id",
        "name",
        "country",
        "active",
        "fallback_order",
        "healthy",
        "fresh",
        "newest_release_seen",
        "hours_late",
        "checked_at",
        "check_error",
    ]
    list_filter = ["active", "healthy", "fresh", "country"]
    list_editable = ["active", "fallback_order"]
    search_fields = ["mirror_id", "name", "base_url"]
    readonly_fields = [
        "checked_at",
        "healthy",
        "fresh",
        "newest_release_seen",
        "hours_late",
        "check_error",
    ]
    actions = ["check_now"]

    @admin.action(description="Check health and freshness now", permissions=["change"])
    def check_now(self, request, queryset):
        release = mirroring.newest_release()
        now = timezone.now()
        checked = [mirroring.check_mirror(mirror, release, now) for mirror in queryset]
        usable = sum(1 for mirror in checked if mirror.usable)
        self.message_user(
            request, f"{len(checked)} mirrors checked, {usable} usable.", messages.SUCCESS
        )


class DistributionReleaseInline(admin.TabularInline):
    model = DistributionRelease
    fk_name = "distribution"
    extra = 0
    fields = ["key", "name", "suite", "base_release", "eol_date", "module_hotfixes", "order"]


@admin.register(Distribution)
class DistributionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "family", "repo_path", "header_label", "order"]
    list_filter = ["family"]
    inlines = [DistributionReleaseInline]


class AvailabilityInline(admin.TabularInline):
    model = Availability
    extra = 0


@admin.register(DistributionRelease)
class DistributionReleaseAdmin(admin.ModelAdmin):
    list_display = ["__str__", "key", "suite", "base_release", "eol_date", "module_hotfixes"]
    list_filter = ["distribution"]
    list_select_related = ["distribution", "base_release__distribution"]
    inlines = [AvailabilityInline]


@admin.register(Availability)
class AvailabilityAdmin(admin.ModelAdmin):
    list_display = ["series", "release", "architectures"]
    list_filter = ["series", "release__distribution"]
    list_select_related = ["series", "release__distribution"]
