from django.contrib import admin

from feedback.trends.models import Rollup, Snapshot


@admin.register(Rollup)
class RollupAdmin(admin.ModelAdmin):
    list_display = ["period", "period_start", "dimension", "value", "servers"]
    list_filter = ["period", "dimension"]
    search_fields = ["value"]
    date_hierarchy = "period_start"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):
    """Published snapshots never change: readable here, not editable or deletable."""

    list_display = ["month", "published_at", "sha256"]
    date_hierarchy = "month"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
