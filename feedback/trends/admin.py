from django.contrib import admin

from feedback.trends.models import Rollup


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
