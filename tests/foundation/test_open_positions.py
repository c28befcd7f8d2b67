"""Vacant seats are shown as open positions, unnamed holders as unnamed, never as a fake
person (issue #18)."""

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from foundation import demo
from foundation.models import Role

pytestmark = pytest.mark.django_db


def test_an_open_staff_position_says_what_it_is_and_how_to_apply(client):
    Role.objects.create(
        kind=Role.Kind.STAFF,
        title="Release engineer",
        is_vacant=True,
        description="Builds releases.",
    )
    assertContains(
        client.get("/about/staff/"),
        '<li class="person-card open-position"><div><p class="badge">Open position</p>'
        '<h3 class="person-name">Release engineer</h3><p class="card-meta">Builds releases.</p>'
        '<p>Interested? <a href="/contact/">Write to the foundation</a>.</p></div></li>',
        html=True,
    )


def test_an_open_position_can_say_how_to_apply(client):
    Role.objects.create(
        kind=Role.Kind.COUNCIL,
        title="Engineering council member",
        is_vacant=True,
        how_to_apply="Nominations go to the board by 1 March.",
    )
    page = client.get("/about/governance/")
    assertContains(page, "<p>Nominations go to the board by 1 March.</p>", html=True)
    assertContains(page, '<p class="badge">Open position</p>', html=True)


def test_a_filled_role_without_a_name_is_not_a_fake_person_or_a_vacancy(client):
    Role.objects.create(kind=Role.Kind.STAFF, title="Virtual CFO")
    page = client.get("/about/staff/")
    assertContains(
        page,
        '<li class="person-card"><div><h3 class="person-name">Virtual CFO</h3>'
        '<p class="person-role">Name not published</p></div></li>',
        html=True,
    )
    assertNotContains(page, "Open position")
    assertNotContains(page, "person-initials")


def test_the_demo_council_is_an_open_position(client):
    demo.load(lambda message: None)
    assertContains(
        client.get("/about/governance/"), '<p class="badge">Open position</p>', html=True
    )
    assertNotContains(client.get("/about/staff/"), "Open position")  # its roles are filled
