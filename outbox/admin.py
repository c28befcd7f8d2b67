from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from outbox import queue
from outbox.models import OutboxItem


@admin.register(OutboxItem)
class OutboxItemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # not subscriptable at run time
    list_display = ["id", "kind", "status", "attempts", "next_attempt_at", "last_error"]
    list_filter = ["status", "kind"]
    readonly_fields = [
        "kind",
        "payload",
        "idempotency_key",
        "status",
        "attempts",
        "last_error",
        "created_at",
        "next_attempt_at",
        "leased_until",
        "done_at",
    ]
    actions = ["retry"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Retry the selected stuck items", permissions=["change"])
    def retry(self, request: HttpRequest, queryset: QuerySet[OutboxItem]) -> None:
        count = queue.retry(queryset)
        messages.success(request, f"{count} stuck item(s) sent again.")
