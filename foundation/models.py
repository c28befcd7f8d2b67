from datetime import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from core.markdown import render_markdown


class Person(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    bio = models.TextField(blank=True, help_text="Markdown.")
    photo = models.ImageField(upload_to="people/", blank=True)
    affiliation = models.CharField(max_length=120, blank=True, help_text="Employer or project")
    website = models.URLField(blank=True)
    links = models.TextField(blank=True, help_text="More links, one URL per line.")

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "people"

    def __str__(self):
        return self.name


# The demo's board and staff are the seed's (the 2013 quarterly update): real people and
# offices, but not known to be current, so the pages say so.
DEMO_HELP = (
    "Demo content (load_demo): as the 2013 quarterly update names it, not known to be current."
)


class BoardSeatQuerySet(models.QuerySet):
    def current(self, today=None):
        today = today or timezone.localdate()
        return self.filter(term_start__lte=today).filter(
            models.Q(term_end__isnull=True) | models.Q(term_end__gte=today)
        )


class BoardSeat(models.Model):
    class Constituency(models.TextChoices):
        COMMUNITY = "community", "Community contributor"
        CORPORATE = "corporate", "Corporate member"
        INTERIM = "interim", "Interim board"

    class Office(models.TextChoices):
        CHAIR = "chair", "Chair"
        VICE_CHAIR = "vice-chair", "Vice chair"
        TREASURER = "treasurer", "Treasurer"
        SECRETARY = "secretary", "Secretary"
        CEO = "ceo", "Chief executive (ex officio)"
        MEMBER = "member", "Member"

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="board_seats")
    constituency = models.CharField(max_length=10, choices=Constituency.choices)
    office = models.CharField(max_length=10, choices=Office.choices, default=Office.MEMBER)
    term_start = models.DateField()
    term_end = models.DateField(null=True, blank=True, help_text="Empty while the term runs.")
    note = models.CharField(max_length=200, blank=True)
    is_demo = models.BooleanField(default=False, editable=False, help_text=DEMO_HELP)

    objects = BoardSeatQuerySet.as_manager()

    class Meta:
        ordering = ["-term_start", "person__name"]

    def __str__(self):
        return f"{self.person} ({self.get_constituency_display()}, from {self.term_start})"


class Role(models.Model):
    """Staff, advisors and engineering council members."""

    class Kind(models.TextChoices):
        STAFF = "staff", "Staff"
        ADVISOR = "advisor", "Advisor"
        COUNCIL = "council", "Engineering council"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="roles"
    )
    title = models.CharField(max_length=120, help_text="e.g. Chief Technology Officer")
    description = models.TextField(blank=True)
    is_vacant = models.BooleanField(
        default=False,
        verbose_name="open position",
        help_text="Shown as an open position that people may apply for. Leave unticked for a "
        "role that is filled but whose holder is not named.",
    )
    how_to_apply = models.CharField(
        max_length=300,
        blank=True,
        help_text="For an open position: how to apply, if not the contact form",
    )
    start = models.DateField(null=True, blank=True)
    end = models.DateField(null=True, blank=True)
    order = models.PositiveSmallIntegerField(default=0)
    is_demo = models.BooleanField(default=False, editable=False, help_text=DEMO_HELP)

    class Meta:
        ordering = ["kind", "order", "title"]

    def __str__(self):
        return f"{self.title}: {self.person or 'vacant'}"


class Affiliation(models.Model):
    name = models.CharField(max_length=120)
    relationship = models.CharField(max_length=120, help_text="e.g. Affiliate Member")
    url = models.URLField(blank=True)
    since = models.DateField(null=True, blank=True)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return f"{self.relationship} of {self.name}"


class GovernanceDocument(models.Model):
    class Kind(models.TextChoices):
        BYLAWS = "bylaws", "Bylaws"
        POLICY = "policy", "Policy"

    title = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    summary = models.TextField(blank=True)

    class Meta:
        ordering = ["kind", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("foundation:document", kwargs={"slug": self.slug})


class DocumentVersionQuerySet(models.QuerySet):
    def public(self):
        """Versions anyone may read: everything but drafts."""
        return self.exclude(status=DocumentVersion.Status.DRAFT)


class DocumentVersion(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft (not public)"
        DISCUSSION = "discussion", "Draft under public discussion"
        ADOPTED = "adopted", "Adopted"
        SUPERSEDED = "superseded", "Superseded"

    document = models.ForeignKey(
        GovernanceDocument, on_delete=models.CASCADE, related_name="versions"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    body = models.TextField(help_text="Markdown.")
    change_summary = models.TextField(blank=True)
    comments_open = models.DateTimeField(null=True, blank=True)
    comments_close = models.DateTimeField(null=True, blank=True)
    adopted_on = models.DateField(null=True, blank=True)

    objects = DocumentVersionQuerySet.as_manager()

    class Meta:
        ordering = ["document", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["document", "number"], name="unique_version")
        ]

    def __str__(self):
        return f"{self.document} v{self.number} ({self.get_status_display()})"

    def get_absolute_url(self):
        return reverse(
            "foundation:document-version",
            kwargs={"slug": self.document.slug, "number": self.number},
        )

    @property
    def is_public(self):
        return self.status != self.Status.DRAFT

    def discussion_is_open(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return (
            self.status == self.Status.DISCUSSION
            and self.comments_open is not None
            and self.comments_open <= now
            and (self.comments_close is None or now < self.comments_close)
        )


class Comment(models.Model):
    """What every comment has: signed-in author, Markdown body, and staff's hide switch."""

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    body = models.TextField(max_length=5000, help_text="Markdown.")
    created_at = models.DateTimeField(auto_now_add=True)
    is_public = models.BooleanField(default=True, help_text="Staff untick this to hide a comment.")

    class Meta:
        ordering = ["created_at"]
        abstract = True


class DocumentComment(Comment):
    version = models.ForeignKey(DocumentVersion, on_delete=models.CASCADE, related_name="comments")
    section = models.CharField(
        max_length=200,
        blank=True,
        help_text="The anchor of the heading the comment discusses; empty: the whole document.",
    )

    def __str__(self):
        return f"Comment by {self.author} on {self.version}"


class BoardMeetingQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)


class BoardMeeting(models.Model):
    date = models.DateField()
    title = models.CharField(max_length=120, default="Board meeting")
    attendees = models.ManyToManyField(Person, blank=True, related_name="meetings")
    decisions = models.TextField(blank=True, help_text="Markdown.")
    minutes = models.TextField(blank=True, help_text="Markdown.")
    is_published = models.BooleanField(default=False)

    objects = BoardMeetingQuerySet.as_manager()

    class Meta:
        ordering = ["-date"]

    def __str__(self):
        return f"{self.title}, {self.date}"

    def get_absolute_url(self):
        return reverse("foundation:meeting", kwargs={"pk": self.pk})


class Category(models.Model):
    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=80, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "categories"

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("foundation:news-category", kwargs={"slug": self.slug})


class Tag(models.Model):
    name = models.CharField(max_length=60, unique=True)
    slug = models.SlugField(max_length=60, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("foundation:news-tag", kwargs={"slug": self.slug})


class NewsPostQuerySet(models.QuerySet):
    def published(self, now=None):
        """Posts the public may see: published, and their publication time has come."""
        return self.filter(
            status=NewsPost.Status.PUBLISHED, published_at__lte=now or timezone.now()
        )

    def unedited_since_publication(self) -> int:
        """Say these posts were last changed when they were published (the demo writes them
        long after their date; a feed would otherwise call each one updated today)."""
        return self.update(updated_at=models.F("published_at"))


class NewsPost(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    title = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    author = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="posts"
    )
    author_name = models.CharField(
        max_length=120, blank=True, help_text="Used when no person is linked."
    )
    summary = models.TextField(blank=True, help_text="One or two sentences for lists and feeds.")
    body = models.TextField(help_text="Markdown.")
    # The body rendered and sanitised when the post is saved (shortcodes are expanded
    # when it is shown): pages and the feed never render Markdown per view.
    body_html = models.TextField(blank=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(
        default=timezone.now, help_text="A time in the future schedules the post."
    )
    categories = models.ManyToManyField(Category, blank=True, related_name="posts")
    tags = models.ManyToManyField(Tag, blank=True, related_name="posts")
    comments_enabled = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = NewsPostQuerySet.as_manager()

    class Meta:
        ordering = ["-published_at"]
        indexes = [models.Index(fields=["status", "-published_at"])]

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        self.render_body()
        if kwargs.get("update_fields") is not None and "body" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "body_html"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("foundation:news-detail", kwargs={"slug": self.slug})

    def render_body(self) -> None:
        """Store the body as sanitised HTML (``save`` does; ``bulk_create`` callers must)."""
        self.body_html = render_markdown(self.body)

    @property
    def byline(self):
        return self.author.name if self.author else self.author_name

    @property
    def is_live(self):
        """Whether the public can read it now (NewsPostQuerySet.published for one post)."""
        return self.status == self.Status.PUBLISHED and self.published_at <= timezone.now()


class NewsComment(Comment):
    post = models.ForeignKey(NewsPost, on_delete=models.CASCADE, related_name="comments")

    def __str__(self):
        return f"Comment by {self.author} on {self.post}"


class ContactMessage(models.Model):
    class Topic(models.TextChoices):
        GENERAL = "general", "General enquiry"
        SUPPORT_US = "sponsorship", "Becoming a sponsor or member"
        PRESS = "press", "Press and media"

    topic = models.CharField(max_length=12, choices=Topic.choices, default=Topic.GENERAL)
    name = models.CharField(max_length=120)
    email = models.EmailField()
    organisation = models.CharField(max_length=120, blank=True)
    message = models.TextField(max_length=5000)
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.get_topic_display()} from {self.name}"
