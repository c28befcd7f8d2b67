from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from releases import services
from releases.forms import NewReleaseForm, PublishForm
from releases.models import Release, ReleaseFile, Series
from releases.repoconfig.models import Mirror


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
    change_list_template = "admin/releases/release/change_list.html"

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("publish/", view(self.new_release_view), name="releases_release_publish"),
            path("<int:pk>/publish/", view(self.review_view), name="releases_release_review"),
            *super().get_urls(),
        ]

    def new_release_view(self, request):
        """Step 1: version, date and maturity; the release is kept unpublished and its files
        are scanned from the archive (settings.RELEASE_ARCHIVE_LOCATION)."""
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        form = NewReleaseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            release, report, error = services.prepare_release(
                **form.cleaned_data, archive_location=settings.RELEASE_ARCHIVE_LOCATION
            )
            for line in report.lines() if report else []:
                self.message_user(request, line, messages.INFO)
            if error:
                self.message_user(
                    request, f"The archive could not be read: {error}", messages.WARNING
                )
            return redirect("admin:releases_release_review", pk=release.pk)
        context = {**self.admin_site.each_context(request), "form": form, "opts": self.model._meta,
                   "title": "Publish a release", "archive": settings.RELEASE_ARCHIVE_LOCATION}  # fmt: skip
        return TemplateResponse(request, "admin/releases/release/publish_new.html", context)

    def review_view(self, request, pk):
        """Step 2: the files found, which mirrors have the release, the notes and the
        announcement (from the template, editable); then publish, in one transaction."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        release = get_object_or_404(Release.objects.select_related("series"), pk=pk)
        draft = services.announcement_draft(release)
        initial = {"release_notes": release.release_notes, "announcement_title": draft["title"],
                   "announcement_summary": draft["summary"], "announcement_body": draft["body"]}  # fmt: skip
        form = PublishForm(request.POST or None, initial=initial)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            release.release_notes = data["release_notes"]
            services.publish_release(release, {"title": data["announcement_title"],
                                               "summary": data["announcement_summary"],
                                               "body": data["announcement_body"]})  # fmt: skip
            self.message_user(request, f"MariaDB {release.version} is published and announced.",
                              messages.SUCCESS)  # fmt: skip
            return redirect(reverse("admin:releases_release_change", args=[release.pk]))
        context = {
            **self.admin_site.each_context(request), "form": form, "opts": self.model._meta,
            "title": f"Publish MariaDB {release.version}", "release": release,
            "files": list(release.files.all()),
            "mirrors": services.mirrors_with(release, Mirror.objects.usable()),
        }  # fmt: skip
        return TemplateResponse(request, "admin/releases/release/publish_review.html", context)

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
