import pytest
from django.utils import timezone

from releases.models import Series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seeded_live(live_server):
    from releases.repoconfig import demo

    demo.load(log=lambda message: None)
    return live_server


def test_the_generator_narrows_choices_and_shows_a_copyable_file(seeded_live, page, screenshot):
    page.goto(seeded_live.url + "/download/repo-config/")
    page.select_option("#distro", "debian")
    releases = page.locator("#release option").all_inner_texts()
    assert any("Bookworm" in text for text in releases)
    assert not any("noble" in text for text in releases)  # narrowed to Debian
    page.select_option("#release", "trixie")
    # 11.8 is labelled as past its end of life from 5 June 2028 on (the suite runs on any day)
    today = timezone.localdate()
    expected = [
        f"MariaDB {s.version}" + (" (end of life)" if s.is_eol(today) else "")
        for s in (Series.objects.get(version=v) for v in ["13.0", "12.3", "11.8"])
    ]
    assert page.locator("#version option").all_inner_texts()[1:] == expected
    page.select_option("#version", "11.8")
    page.select_option("#mirror", "agdsn")
    page.get_by_role("button", name="Show the configuration").click()
    page.wait_for_url("**/download/repo-config/?distro=debian*")
    file_text = page.locator("#config-file").inner_text()
    assert "URIs: https://ftp.agdsn.de/pub/mirrors/mariadb/repo/11.8/debian" in file_text
    assert "Suites: trixie" in file_text
    assert page.get_by_role("button", name="Copy").count() == 3
    screenshot("repo-config-result", full_page=True)
