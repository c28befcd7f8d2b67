from django.contrib import admin

from releases.repoconfig.models import Availability, Distribution, DistributionRelease, Mirror


@admin.register(Mirror)
class MirrorAdmin(admin.ModelAdmin):
    list_display = ["mirror_id", "name", "country", "base_url", "active"]
    list_filter = ["active", "country"]
    list_editable = ["active"]
    search_fields = ["mirror_id", "name", "base_url"]


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
