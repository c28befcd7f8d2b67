from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone

from releases.models import Release
from security.forms import AttachForm
from security.models import Advisory, AffectedRange
from security.services import AttachRefused, attach_fix, touch


class AffectedRangeInline(admin.TabularInline):
    model = AffectedRange
    extra = 0
    fields = ["series", "introduced", "fixed", "basis"]
    autocomplete_fields = ["series", "introduced", "fixed"]


@admin.register(Advisory)
class AdvisoryAdmin(admin.ModelAdmin):
    list_display = ["advisory_id", "published", "rating", "cvss_score", "component"]
    list_filter = ["rating", "ranges__series"]
    search_fields = ["advisory_id", "summary", "component"]
    date_hierarchy = "published"
    inlines = [AffectedRangeInline]
    readonly_fields = ["modified"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.modified = timezone.now()
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        """A change to the advisory or its ranges is its new ``modified`` (OSV)."""
        super().save_related(request, form, formsets, change)
        if change and (form.has_changed() or any(f.has_changed() for f in formsets)):
            touch(form.instance)

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path(
                "attach/<int:release_pk>/",
                view(self.attach_view),
                name="security_advisory_attach",
            ),
            *super().get_urls(),
        ]

    def attach_view(self, request, release_pk):
        """The advisories a release fixes, offered when it is published: ticking one ends
        its range of the release's series at this release."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        release = get_object_or_404(Release.objects.select_related("series"), pk=release_pk)
        candidates = attach_candidates(release)
        form = AttachForm(request.POST or None, candidates=candidates)
        if request.method == "POST" and form.is_valid():
            try:
                changed = attach_fix(release, form.cleaned_data["advisories"])
            except AttachRefused as error:
                form.add_error("advisories", str(error))
            else:
                self.message_user(
                    request,
                    f"{changed} advisor{'y' if changed == 1 else 'ies'} now fixed in MariaDB {release.version}.",
                    messages.SUCCESS,
                )
                return redirect(reverse("admin:security_advisory_attach", args=[release.pk]))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": f"Advisories fixed in MariaDB {release.version}",
            "release": release,
            "fixed": AffectedRange.objects.filter(fixed=release).select_related("advisory"),
        }
        return TemplateResponse(request, "admin/security/advisory/attach.html", context)


def attach_candidates(release: Release):
    """Advisories not yet fixed in the release's series by it or an earlier release."""
    earlier_or_same = Q(
        ranges__series=release.series,
        ranges__fixed__isnull=False,
    ) & (
        Q(ranges__fixed__version_major__lt=release.version_major)
        | Q(
            ranges__fixed__version_major=release.version_major,
            ranges__fixed__version_minor__lt=release.version_minor,
        )
        | Q(
            ranges__fixed__version_major=release.version_major,
            ranges__fixed__version_minor=release.version_minor,
            ranges__fixed__version_patch__lte=release.version_patch,
        )
    )
    done = Advisory.objects.filter(earlier_or_same).values("pk")
    return Advisory.objects.exclude(pk__in=done).newest_first()
