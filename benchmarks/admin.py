from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html_join

from benchmarks.forms import RejectRunsForm, RunUploadForm
from benchmarks.importers import ImportFailed
from benchmarks.models import Attachment, Measurement, Run, RunEvent, Suite
from benchmarks.services import importing, permissions, review
from core.transitions import TransitionRefused


class RunInline(admin.TabularInline):
    model = Run
    extra = 0
    fields = ["label", "status", "server_version", "client", "run_date", "order"]
    readonly_fields = ["status"]
    show_change_link = True


@admin.register(Suite)
class SuiteAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "is_published"]
    list_filter = ["is_published"]
    prepopulated_fields = {"slug": ["title"]}
    raw_id_fields = ["news_post"]
    inlines = [RunInline]
    change_form_template = "admin/benchmarks/suite_change_form.html"

    def get_urls(self):
        return [
            path(
                "<int:pk>/import/",
                self.admin_site.admin_view(self.import_view),
                name="benchmarks_suite_import",
            ),
            *super().get_urls(),
        ]

    def import_view(self, request, pk):
        suite = get_object_or_404(Suite, pk=pk)
        if not self.has_change_permission(request, suite):
            return redirect("admin:index")
        if request.method == "POST" and importing.declared_size_too_large(request):
            form = RunUploadForm()  # the body is never read: refused by its declared size
            form.errors["file"] = form.error_class([importing.SIZE_MESSAGE])
        else:
            form = RunUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_bound and form.is_valid():
            data = dict(form.cleaned_data)
            upload = data.pop("file")
            try:
                run = importing.import_run(
                    suite=suite, raw=upload.read(), file_name=upload.name, user=request.user, **data
                )
            except ImportFailed as error:
                form.add_error("file", f"Could not import: {error}")
            else:
                state = (
                    "published"
                    if run.status == Run.Status.PUBLISHED
                    else "a draft: it is public once a reviewer publishes it"
                )
                self.message_user(
                    request,
                    f"Imported {run.measurements.count()} measurements as “{run.label}”, {state}.",
                    messages.SUCCESS,
                )
                return redirect("admin:benchmarks_suite_change", suite.pk)
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "suite": suite,
            "opts": self.model._meta,
            "title": f"Import a run into {suite}",
        }
        return render(request, "admin/benchmarks/import_run.html", context)


class RunEventInline(admin.TabularInline):
    """The run's review history, read-only: statuses change only through the actions."""

    model = RunEvent
    extra = 0
    fields = readonly_fields = ("from_status", "to_status", "actor", "note", "at")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class MeasurementInline(admin.TabularInline):
    model = Measurement
    extra = 0


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    """Review: the figures (inline), the environment and provenance, the raw files; then
    publish or reject with a reason. Only reviewers (``publish_run``) are offered either."""

    list_display = ["label", "suite", "status", "uploaded_by", "server_version", "run_date"]
    # server versions are stored as the release they name: one entry per release
    list_filter = ["status", "suite", "server_version"]
    list_select_related = ["suite", "uploaded_by"]
    search_fields = ["label", "server_version", "source"]
    inlines = [MeasurementInline, RunEventInline]
    actions = ["publish", "reject"]
    readonly_fields = [
        "status",
        "review_note",
        "reviewed_by",
        "reviewed_at",
        "provenance",
        "raw_files",
    ]
    fieldsets = [
        (None, {"fields": ["suite", "label", "variant", "order", "uploaded_by"]}),
        (
            "Environment and provenance",
            {
                "fields": [
                    "run_date",
                    "server_version",
                    "server_build",
                    "server_commit",
                    "server_config",
                    "hardware",
                    "os",
                    "client",
                    "source",
                    "source_url",
                    "unstated",
                    "notes",
                    "details",
                ]
            },
        ),
        (
            "Review",
            {
                "fields": [
                    "status",
                    "provenance",
                    "raw_files",
                    "review_note",
                    "reviewed_by",
                    "reviewed_at",
                ]
            },
        ),
    ]

    def has_publish_permission(self, request):
        return request.user.has_perm(permissions.PUBLISH_PERMISSION)

    @admin.display(description="provenance")
    def provenance(self, run):
        missing = run.missing_provenance()
        return "complete" if not missing else "lacks " + ", ".join(missing)

    @admin.display(description="raw files")
    def raw_files(self, run):
        files = list(run.attachments.all())
        if not files:
            return "none (figures typed from the source)"
        links = (
            (reverse("benchmarks:attachment", args=[run.suite.slug, f.pk]), str(f)) for f in files
        )
        return format_html_join(", ", '<a href="{}">{}</a>', links)

    @admin.action(description="Publish the selected runs", permissions=["publish"])
    def publish(self, request, queryset):
        published, refused = 0, []
        for run in queryset.select_related("suite"):
            try:
                review.publish_run(run, request.user)
            except TransitionRefused as error:
                refused.append(f"“{run.label}”: {error}")
            else:
                published += 1
        if published:
            self.message_user(request, f"Published {published} run(s).", messages.SUCCESS)
        for message in refused:
            self.message_user(request, f"Not published: {message}", messages.ERROR)

    @admin.action(description="Reject the selected runs, with a reason", permissions=["publish"])
    def reject(self, request, queryset):
        form = RejectRunsForm(request.POST if "reason" in request.POST else None)
        if form.is_bound and form.is_valid():
            rejected, refused = 0, []
            for run in queryset:
                try:
                    review.reject_run(run, request.user, form.cleaned_data["reason"])
                except TransitionRefused as error:
                    refused.append(f"“{run.label}”: {error}")
                else:
                    rejected += 1
            if rejected:
                self.message_user(request, f"Rejected {rejected} run(s).", messages.SUCCESS)
            for message in refused:
                self.message_user(request, f"Not rejected: {message}", messages.ERROR)
            return None
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "runs": queryset,
            "opts": self.model._meta,
            "title": "Reject runs",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return render(request, "admin/benchmarks/reject_runs.html", context)


@admin.register(Attachment)
class AttachmentAdmin(admin.ModelAdmin):
    list_display = ["__str__", "suite", "run", "kind", "parser"]
    list_filter = ["suite", "kind"]
