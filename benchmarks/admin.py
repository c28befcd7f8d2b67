from django.contrib import admin, messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path

from benchmarks import services
from benchmarks.forms import RunUploadForm
from benchmarks.importers import ImportFailed
from benchmarks.models import Attachment, Measurement, Run, Suite


class RunInline(admin.TabularInline):
    model = Run
    extra = 0
    fields = ["label", "server_version", "client", "run_date", "order"]
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
        if request.method == "POST" and services.declared_size_too_large(request):
            form = RunUploadForm()  # the body is never read: refused by its declared size
            form.errors["file"] = form.error_class([services.SIZE_MESSAGE])
        else:
            form = RunUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_bound and form.is_valid():
            data = dict(form.cleaned_data)
            upload = data.pop("file")
            try:
                run = services.import_run(
                    suite=suite, raw=upload.read(), file_name=upload.name, user=request.user, **data
                )
            except ImportFailed as error:
                form.add_error("file", f"Could not import: {error}")
            else:
                self.message_user(
                    request,
                    f"Imported {run.measurements.count()} measurements as “{run.label}”.",
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


class MeasurementInline(admin.TabularInline):
    model = Measurement
    extra = 0


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["label", "suite", "server_version", "run_date"]
    list_filter = ["suite"]
    inlines = [MeasurementInline]


@admin.register(Attachment)
class AttachmentAdmin(admin.ModelAdmin):
    list_display = ["__str__", "suite", "run", "kind", "parser"]
    list_filter = ["suite", "kind"]
