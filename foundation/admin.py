from django.contrib import admin

from foundation.models import (
    Affiliation,
    BoardMeeting,
    BoardSeat,
    Category,
    ContactMessage,
    DocumentComment,
    DocumentVersion,
    GovernanceDocument,
    NewsComment,
    NewsPost,
    Person,
    Role,
    Tag,
)


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["name", "affiliation", "website"]
    search_fields = ["name", "affiliation"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(BoardSeat)
class BoardSeatAdmin(admin.ModelAdmin):
    list_display = ["person", "office", "constituency", "term_start", "term_end"]
    list_filter = ["constituency", "office"]
    list_select_related = ["person"]


@admin.register(Role)
class RoleAdmin(admin.ModelAdmin):
    list_display = ["title", "person", "kind", "order"]
    list_filter = ["kind"]
    list_editable = ["order"]


@admin.register(Affiliation)
class AffiliationAdmin(admin.ModelAdmin):
    list_display = ["name", "relationship", "since"]


class DocumentVersionInline(admin.StackedInline):
    model = DocumentVersion
    extra = 0


@admin.register(GovernanceDocument)
class GovernanceDocumentAdmin(admin.ModelAdmin):
    list_display = ["title", "kind"]
    prepopulated_fields = {"slug": ["title"]}
    inlines = [DocumentVersionInline]


class ModeratedCommentAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at", "is_public"]
    list_filter = ["is_public", "created_at"]
    list_editable = ["is_public"]
    search_fields = ["body", "author__email"]
    actions = ["hide", "show"]

    @admin.action(description="Hide the selected comments", permissions=["change"])
    def hide(self, request, queryset):
        queryset.update(is_public=False)

    @admin.action(description="Show the selected comments", permissions=["change"])
    def show(self, request, queryset):
        queryset.update(is_public=True)


admin.site.register(DocumentComment, ModeratedCommentAdmin)
admin.site.register(NewsComment, ModeratedCommentAdmin)


@admin.register(BoardMeeting)
class BoardMeetingAdmin(admin.ModelAdmin):
    list_display = ["title", "date", "is_published"]
    list_filter = ["is_published"]
    date_hierarchy = "date"
    filter_horizontal = ["attendees"]


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Tag)
class TagAdmin(admin.ModelAdmin):
    prepopulated_fields = {"slug": ["name"]}


@admin.register(NewsPost)
class NewsPostAdmin(admin.ModelAdmin):
    list_display = ["title", "status", "published_at", "byline"]
    list_filter = ["status", "categories"]
    search_fields = ["title", "body"]
    prepopulated_fields = {"slug": ["title"]}
    filter_horizontal = ["categories", "tags"]
    date_hierarchy = "published_at"
    autocomplete_fields = ["author"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(ContactMessage)
class ContactMessageAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "topic", "created_at", "handled"]
    list_filter = ["topic", "handled"]
    list_editable = ["handled"]
    search_fields = ["name", "email", "message"]
