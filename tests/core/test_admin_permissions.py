"""Admin actions that change state are only offered to, and only run for, staff who may
change the objects; a staff user who can merely view the list cannot run them.

The sponsors app's actions are covered in tests/sponsors.
"""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.forms.models import model_to_dict
from django.utils import timezone

from feedback.models import RawReport
from foundation.models import DocumentComment, NewsComment
from releases.models import Release
from tests.foundation.factories import DocumentVersionFactory, NewsPostFactory, UserFactory
from tests.releases.factories import ReleaseFileFactory

pytestmark = pytest.mark.django_db

CHECKED_APPS = {
    "foundation",
    "releases",
    "repoconfig",
    "feedback",
    "trends",
    "benchmarks",
    "core",
    "payments",
}


def test_every_admin_action_outside_sponsors_declares_a_permission_beyond_view():
    undeclared = []
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in CHECKED_APPS:
            continue
        for action in model_admin.actions or []:
            function = getattr(model_admin, action) if isinstance(action, str) else action
            permissions = set(getattr(function, "allowed_permissions", ()))
            if not permissions - {"view"}:
                undeclared.append(f"{model._meta.label}.{function.__name__}")
    assert undeclared == []


def news_comment():
    return NewsComment.objects.create(
        post=NewsPostFactory(), author=UserFactory(), body="Nice.", is_public=True
    )


def document_comment():
    return DocumentComment.objects.create(
        version=DocumentVersionFactory(), author=UserFactory(), body="Agreed.", is_public=True
    )


def unpublished_release():
    # With a file: a stable release without one is published only from its review page.
    return ReleaseFileFactory(release__is_published=False).release


def rejected_report():
    return RawReport.objects.create(
        received_at=timezone.now(),
        path="/rest/v1/post",
        size=7,
        sha256="0" * 64,
        body=b"garbage",
        status=RawReport.Status.REJECTED,
        rejection_reason="rejected by an older parser",
        processed_at=timezone.now() - timezone.timedelta(days=3),
    )


ACTIONS = [
    (NewsComment, "hide", news_comment),
    (NewsComment, "show", news_comment),
    (DocumentComment, "hide", document_comment),
    (Release, "publish_and_announce", unpublished_release),
    (RawReport, "reprocess", rejected_report),
]


def staff_with(model, *codenames):
    user = UserFactory(is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label=model._meta.app_label,
            codename__in=[f"{codename}_{model._meta.model_name}" for codename in codenames],
        )
    )
    return user


def changelist(model):
    return f"/admin/{model._meta.app_label}/{model._meta.model_name}/"


def row(obj):
    obj.refresh_from_db()
    return {key: value for key, value in model_to_dict(obj).items() if key != "body"}


@pytest.mark.parametrize(("model", "action", "make"), ACTIONS)
def test_view_only_staff_are_not_offered_and_cannot_run_the_action(client, model, action, make):
    obj = make()
    if action == "show":
        model.objects.filter(pk=obj.pk).update(is_public=False)
    before = row(obj)
    client.force_login(staff_with(model, "view"))

    page = client.get(changelist(model))
    assert page.status_code == 200
    action_form = page.context["action_form"]  # None when no action is left to offer
    offered = [name for name, _label in action_form.fields["action"].choices] if action_form else []
    assert action not in offered

    client.post(changelist(model), {"action": action, "_selected_action": [obj.pk]})
    assert row(obj) == before


@pytest.mark.parametrize(("model", "action", "make"), ACTIONS)
def test_staff_who_may_change_can_run_the_action(client, model, action, make):
    obj = make()
    if action == "show":
        model.objects.filter(pk=obj.pk).update(is_public=False)
    before = row(obj)
    client.force_login(staff_with(model, "view", "change"))
    response = client.post(changelist(model), {"action": action, "_selected_action": [obj.pk]})
    assert response.status_code == 302
    assert row(obj) != before
