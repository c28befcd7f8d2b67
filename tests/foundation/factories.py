from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from foundation.models import Category, DocumentVersion, GovernanceDocument, NewsPost, Tag


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"reader{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("a-long-Passphrase-42")


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Category
        django_get_or_create = ["slug"]

    name = "Performance"
    slug = factory.LazyAttribute(lambda c: c.name.lower().replace(" ", "-"))


class TagFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tag
        django_get_or_create = ["slug"]

    name = "sysbench"
    slug = factory.LazyAttribute(lambda t: t.name)


class NewsPostFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = NewsPost

    title = factory.Sequence(lambda n: f"Post number {n}")
    slug = factory.Sequence(lambda n: f"post-{n}")
    body = "Some **Markdown**."
    status = NewsPost.Status.PUBLISHED
    published_at = factory.LazyFunction(lambda: timezone.now() - timedelta(hours=1))


class DocumentVersionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = DocumentVersion

    document = factory.LazyFunction(
        lambda: GovernanceDocument.objects.get_or_create(
            slug="bylaws", defaults={"title": "Bylaws", "kind": "bylaws"}
        )[0]
    )
    number = factory.Sequence(lambda n: n + 1)
    status = DocumentVersion.Status.DISCUSSION
    body = "# Bylaws\n\nOne.\n"
    comments_open = factory.LazyFunction(lambda: timezone.now() - timedelta(days=1))
    comments_close = factory.LazyFunction(lambda: timezone.now() + timedelta(days=30))
