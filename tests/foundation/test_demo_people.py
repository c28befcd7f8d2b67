"""The demo's board and staff are the seed's 2013 interim board and team: real people, but
not known to be current in 2026, so every page that shows them says so."""

from datetime import date

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from foundation import demo
from foundation.models import BoardSeat
from tests.search.factories import BoardSeatFactory

pytestmark = pytest.mark.django_db
NOTICE = "Later changes are not recorded on this site, so they are not known to be current."


def test_the_demo_board_and_staff_are_labelled_as_last_recorded(client):
    demo.load(lambda message: None)
    board = client.get("/about/board/")
    assertContains(board, NOTICE)
    assertContains(board, "<h2>The board as last recorded</h2>", html=True)
    assertNotContains(board, "Current board")
    assertContains(client.get("/about/"), "<h2>The board as last recorded</h2>", html=True)
    assertContains(client.get("/about/staff/"), NOTICE)


def test_a_real_board_is_the_current_board_without_a_notice(client):
    BoardSeatFactory(term_start=date(2025, 6, 1))
    assert not BoardSeat.objects.filter(is_demo=True).exists()
    board = client.get("/about/board/")
    assertContains(board, "<h2>Current board</h2>", html=True)
    assertNotContains(board, "Demo data")
    assertContains(board, "No earlier board is recorded on this site.")
