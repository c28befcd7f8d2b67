from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from releases.forms import NewReleaseForm, PublishForm
from releases.models import Release, ReleaseFile, Series
from releases.repoconfig.models import Mirror
from releases.services import mirroring, publishing


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = [
        "version",
        "name",
        "status",
        "support_type",
        "first_release_date",
        "eol_date",
        "enterprise_eos_date",
    ]
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
            release, report, error = publishing.prepare_release(
                **form.cleaned_data, archive_location=settings.RELEASE_ARCHIVE_LOCATION
            )
            self.archive_message(request, release, report, error)
            return redirect("admin:releases_release_review", pk=release.pk)
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": "Publish a release",
            "archive": settings.RELEASE_ARCHIVE_LOCATION,
        }
        return TemplateResponse(request, "admin/releases/release/publish_new.html", context)

    def archive_message(self, request, release, report, error):
        """The archive step's one message: what happened and what staff can do."""
        went_well, text = publishing.archive_outcome(release, report, error)
        self.message_user(request, text, messages.SUCCESS if went_well else messages.WARNING)

    def review_view(self, request, pk):
        """Step 2: the files found, which mirrors have the release, the notes and the
        announcement (from the template, editable); then publish, in one transaction."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        release = get_object_or_404(Release.objects.select_related("series"), pk=pk)
        draft = publishing.announcement_draft(release)
        initial = {
            "release_notes": release.release_notes,
            "announcement_title": draft["title"],
            "announcement_summary": draft["summary"],
            "announcement_body": draft["body"],
        }
        if request.method == "POST" and "read_archive" in request.POST and not release.is_published:
            report, error = publishing.read_archive(release, settings.RELEASE_ARCHIVE_LOCATION)
            self.archive_message(request, release, report, error)
            return redirect("admin:releases_release_review", pk=release.pk)
        form = PublishForm(
            request.POST or None,
            initial=initial,
            needs_files_choice=publishing.needs_files_choice(release),
        )
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            release.release_notes = data["release_notes"]
            publishing.publish_release(
                release,
                {
                    "title": data["announcement_title"],
                    "summary": data["announcement_summary"],
                    "body": data["announcement_body"],
                },
                without_files=data.get("without_files", False),
            )
            done = f"MariaDB {release.version} is published and announced."
            if release.files_pending:
                done += " Its files are marked as on their way until they are imported."
            self.message_user(request, done, messages.SUCCESS)
            return redirect(reverse("admin:releases_release_change", args=[release.pk]))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": f"Publish MariaDB {release.version}",
            "release": release,
            "files": list(release.files.all()),
            "mirrors": mirroring.mirrors_with(release, Mirror.objects.usable()),
        }
        return TemplateResponse(request, "admin/releases/release/publish_review.html", context)

    def save_model(self, request, obj, form, change):
        if obj.is_published and not Release.objects.published().filter(pk=obj.pk).exists():
            obj.is_published = False  # published in save_related, once its files are saved
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        release = form.instance
        if not form.cleaned_data.get("is_published"):
            return
        try:
            publishing.publish_release(release)
        except publishing.FilesMissing:
            self.message_user(
                request,
                f"MariaDB {release.version} is saved but not published: it has no files yet. "
                "Add its files, or publish it through “Publish a release”, where you may "
                "choose to publish it without files.",
                messages.WARNING,
            )

    @admin.action(description="Publish and announce in the news", permissions=["change"])
    def publish_and_announce(self, request, queryset):
        published, skipped = 0, []
        for release in queryset.select_related("series"):
            try:
                publishing.publish_release(release)
                published += 1
            except publishing.FilesMissing:
                skipped.append(release.version)
        self.message_user(
            request, f"{published} releases published and announced.", messages.SUCCESS
        )
        if skipped:
            self.message_user(
                request,
                f"Not published, no files yet: {', '.join(skipped)}. Publish each through "
                "“Publish a release”, where you may choose to publish it without files.",
                messages.WARNING,
            )
