from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.http import require_POST
from django.views.generic import DetailView, ListView, TemplateView

from core import numbers
from core.hostile import bad_request
from core.send_limit import SendLimit, refuse
from foundation import services
from foundation.diff import sections, text_diff
from foundation.forms import CommentForm, ContactForm, DocumentCommentForm
from foundation.models import (
    Affiliation,
    BoardMeeting,
    BoardSeat,
    Category,
    DocumentVersion,
    GovernanceDocument,
    NewsPost,
    Role,
    Tag,
)

# Only what is published or sent counts: a form sent back with errors costs nothing.
COMMENT_LIMIT = SendLimit(group="foundation-comment", key="user", rate="5/m")
CONTACT_LIMIT = SendLimit(group="foundation-contact", key="ip", rate="5/m")


class AboutView(TemplateView):
    template_name = "foundation/about.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["seats"] = list(BoardSeat.objects.current().select_related("person"))
        context["demo_people"] = any(seat.is_demo for seat in context["seats"])
        context["affiliations"] = Affiliation.objects.all()
        return context


class BoardView(TemplateView):
    template_name = "foundation/board.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        seats = list(BoardSeat.objects.select_related("person"))
        current = set(BoardSeat.objects.current().values_list("pk", flat=True))
        terms = defaultdict(list)
        for seat in seats:
            if seat.pk not in current:
                terms[(seat.term_start, seat.term_end)].append(seat)
        context["current"] = [seat for seat in seats if seat.pk in current]
        context["history"] = sorted(terms.items(), key=lambda item: item[0][0], reverse=True)
        context["advisors"] = list(
            Role.objects.filter(kind=Role.Kind.ADVISOR).select_related("person")
        )
        context["demo_people"] = any(x.is_demo for x in [*context["current"], *context["advisors"]])
        return context


class StaffView(TemplateView):
    template_name = "foundation/staff.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        roles = Role.objects.select_related("person")
        context["staff"] = [r for r in roles if r.kind == Role.Kind.STAFF]
        context["advisors"] = [r for r in roles if r.kind == Role.Kind.ADVISOR]
        context["demo_people"] = any(r.is_demo for r in roles)
        return context


class GovernanceView(TemplateView):
    template_name = "foundation/governance.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        public_versions = DocumentVersion.objects.public()
        context["documents"] = GovernanceDocument.objects.prefetch_related(
            Prefetch("versions", queryset=public_versions, to_attr="public_versions")
        )
        context["affiliations"] = Affiliation.objects.all()
        context["council"] = Role.objects.filter(kind=Role.Kind.COUNCIL).select_related("person")
        context["meetings"] = BoardMeeting.objects.published()[:5]
        return context


def _public_version(slug, number=None):
    versions = DocumentVersion.objects.select_related("document").public()
    if number is None:
        version = versions.filter(document__slug=slug).order_by("-number").first()
        if version is None:
            raise Http404("No public version of this document.")
        return version
    return get_object_or_404(versions, document__slug=slug, number=number)


def _document_comment_form(version, data=None):
    return DocumentCommentForm(data, sections=sections(version.body))


def _document_context(version, form):
    headings = dict(sections(version.body))
    comments = list(version.comments.filter(is_public=True).select_related("author__profile"))
    for comment in comments:
        comment.section_title = headings.get(comment.section, "")
    return {
        "version": version,
        "document": version.document,
        "versions": version.document.versions.public(),
        "previous": (
            DocumentVersion.objects.filter(document=version.document, number__lt=version.number)
            .public()
            .order_by("-number")
            .first()
        ),
        "comments": comments,
        "form": form,
        "open": version.discussion_is_open(),
    }


def document(request, slug, number=None):
    version = _public_version(slug, number)
    return render(
        request,
        "foundation/document.html",
        _document_context(version, _document_comment_form(version)),
    )


def document_diff(request, slug, number):
    version = _public_version(slug, number)
    from_number = request.GET.get("from", str(number - 1))
    if not numbers.is_ascii_integer(from_number) or len(from_number) > 9:
        return bad_request(request, "“from” must be a version number, such as 1.")
    previous = get_object_or_404(
        DocumentVersion.objects.public(),
        document=version.document,
        number=int(from_number),
    )
    hunks = text_diff(previous.body, version.body)
    return render(
        request,
        "foundation/document_diff.html",
        {"version": version, "previous": previous, "hunks": hunks},
    )


@require_POST
@login_required
def document_comment(request, slug, number):
    version = _public_version(slug, number)
    form = _document_comment_form(version, request.POST)
    template = "foundation/document.html"
    if not form.is_valid():
        return render(request, template, _document_context(version, form), status=400)
    if (wait := COMMENT_LIMIT.wait(request)) is not None:
        return refuse(request, template, _document_context(version, form), wait)
    try:
        services.comment_on_document(
            version, request.user, form.cleaned_data["body"], form.cleaned_data["section"]
        )
    except services.DiscussionClosed as error:
        messages.error(request, str(error))
    else:
        COMMENT_LIMIT.count(request)
        messages.success(request, "Thank you: your comment is published.")
    return redirect(version.get_absolute_url() + "#comments")


class MeetingArchiveView(TemplateView):
    template_name = "foundation/meetings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        by_year = defaultdict(list)
        for meeting in BoardMeeting.objects.published():
            by_year[meeting.date.year].append(meeting)
        context["years"] = sorted(by_year.items(), reverse=True)
        return context


class MeetingView(DetailView):
    template_name = "foundation/meeting.html"
    context_object_name = "meeting"

    def get_queryset(self):
        return BoardMeeting.objects.published().prefetch_related("attendees")


def _published_posts():
    return (
        NewsPost.objects.published().select_related("author").prefetch_related("categories", "tags")
    )


class NewsListView(ListView):
    template_name = "foundation/news_list.html"
    context_object_name = "posts"
    paginate_by = 10
    heading = "News"

    def get_queryset(self):
        return _published_posts()

    def paginate_queryset(self, queryset, page_size):
        numbers.page_number(self.request.GET)  # a page in full-width digits is a 400 (issue 58)
        return super().paginate_queryset(queryset, page_size)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["heading"] = self.heading
        context["categories"] = Category.objects.annotate(
            n=Count("posts", filter=Q(posts__in=NewsPost.objects.published()))
        ).filter(n__gt=0)
        return context


class CategoryNewsView(NewsListView):
    def get_queryset(self):
        self.category = get_object_or_404(Category, slug=self.kwargs["slug"])
        self.heading = self.category.name
        return _published_posts().filter(categories=self.category)


class TagNewsView(NewsListView):
    def get_queryset(self):
        self.tag = get_object_or_404(Tag, slug=self.kwargs["slug"])
        self.heading = f"Tagged “{self.tag.name}”"
        return _published_posts().filter(tags=self.tag)


class NewsDetailView(DetailView):
    template_name = "foundation/news_detail.html"
    context_object_name = "post"

    def get_queryset(self):
        return _published_posts()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(_news_comments_context(self.object, CommentForm()))
        return context


def _news_comments_context(post, form):
    comments = post.comments.filter(is_public=True).select_related("author__profile")
    return {"post": post, "comments": comments, "form": form}


@require_POST
@login_required
def news_comment(request, slug):
    post = get_object_or_404(_published_posts(), slug=slug)
    form = CommentForm(request.POST)
    template = "foundation/news_detail.html"
    if not form.is_valid():
        return render(request, template, _news_comments_context(post, form), status=400)
    if (wait := COMMENT_LIMIT.wait(request)) is not None:
        return refuse(request, template, _news_comments_context(post, form), wait)
    try:
        services.comment_on_post(post, request.user, form.cleaned_data["body"])
    except services.CommentsDisabled as error:
        messages.error(request, str(error))
    else:
        COMMENT_LIMIT.count(request)
        messages.success(request, "Thank you: your comment is published.")
    return redirect(post.get_absolute_url() + "#comments")


def contact(request):
    template = "foundation/contact.html"
    if request.method != "POST":
        form = ContactForm(initial={"topic": request.GET.get("topic", "general")})
        return render(request, template, {"form": form})
    form = ContactForm(request.POST)
    if not form.is_valid():
        return render(request, template, {"form": form}, status=400)
    if (wait := CONTACT_LIMIT.wait(request)) is not None:
        return refuse(request, template, {"form": form}, wait)
    message = services.receive_contact_message(form)
    CONTACT_LIMIT.count(request)
    messages.success(
        request,
        "Thank you: your message has reached the foundation's staff. A confirmation is on "
        f"its way to {message.email}.",
    )
    return redirect("foundation:contact")


class NewsFeed(Feed):
    feed_type = Atom1Feed
    title = "MariaDB Foundation news"
    link = "/news/"
    subtitle = "News and quarterly updates from the MariaDB Foundation."

    def items(self):
        return _published_posts()[:20]

    def item_title(self, item):
        return item.title

    def item_description(self, item):
        return item.body_html

    def item_author_name(self, item):
        return item.byline or None

    def item_pubdate(self, item):
        return item.published_at

    def item_updateddate(self, item):
        return max(item.updated_at, item.published_at)

    def item_categories(self, item):
        return [c.name for c in item.categories.all()]
