"""What a person saw unfinished at 1280 px (issue 49, item 7): /download/'s choices cut
off ("MariaDB 12.3 (Long", "Dalhousie Universit"), the `sha256sum -c` line running out of
its box, and the signed-in menu wrapping onto a second line. Light and dark, 390 and
1280 px screenshots go to test-artifacts/."""

import pytest

from releases.repoconfig.models import Mirror
from tests.artifacts import ARTIFACTS
from tests.foundation.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each select's widest option against the room inside it (its arrow included).
CUT_LABELS = """() => [...document.querySelectorAll('.download-fields select')].flatMap(s => {
  const style = getComputedStyle(s);
  const ruler = document.createElement('canvas').getContext('2d');
  ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return [...s.options].filter(o => ruler.measureText(o.text).width > room)
    .map(o => `${s.id}: "${o.text}" needs ${Math.ceil(ruler.measureText(o.text).width)}px of ${room}px`);
})"""
OVERFLOWING_CODE = """() => [...document.querySelectorAll('pre')]
  .filter(p => p.offsetParent && p.scrollWidth > p.clientWidth + 1).map(p => p.id)"""
NAV_ROWS = """() => new Set([...document.querySelectorAll('#site-nav > ul > li')]
  .filter(li => li.offsetParent).map(li => Math.round(li.getBoundingClientRect().top))).size"""


def test_download_choices_commands_and_the_signed_in_menu_fit_at_1280(
    live_server, browser, client, demo_like
):
    Mirror.objects.create(mirror_id="dal", name="Dalhousie University", country="CA",
                          base_url="https://mirror.its.dal.ca/mariadb/")  # fmt: skip
    ARTIFACTS.mkdir(exist_ok=True)
    client.force_login(UserFactory(email="dba@example.org", is_staff=True))
    for scheme in ("light", "dark"):
        for width in (1280, 390):
            context = browser.new_context(
                viewport={"width": width, "height": 900}, color_scheme=scheme
            )
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": live_server.url}])  # fmt: skip
            page = context.new_page()
            try:
                page.goto(live_server.url + "/download/?series=12.3&mirror=dal")
                page.locator("#verify summary").click()
                page.screenshot(
                    path=str(ARTIFACTS / f"download-{width}-{scheme}.png"), full_page=True
                )
                assert page.evaluate(OVERFLOWING_CODE) == [], f"at {width}px"
                if width == 1280:
                    assert page.evaluate(CUT_LABELS) == []
                    assert page.evaluate(NAV_ROWS) == 1, "the signed-in menu wraps"
                    page.get_by_text("Your account").click()
                    page.screenshot(path=str(ARTIFACTS / f"account-menu-{width}-{scheme}.png"))
                    assert page.get_by_role("link", name="My gifts").is_visible()
                    assert page.get_by_role("button", name="Sign out").is_visible()
            finally:
                context.close()
