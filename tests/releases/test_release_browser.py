import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_download_verify_and_reach_the_generator_in_two_clicks(live_server, page, screenshot):
    from releases import demo as releases_demo
    from releases.repoconfig import demo as repoconfig_demo

    releases_demo.load(log=lambda m: None)
    repoconfig_demo.load(log=lambda m: None)
    page.goto(live_server.url + "/download/11.4/11.4.2/")
    download = page.get_by_role("link", name="Download mariadb-11.4.2.tar.gz")
    # Through the counted redirect by file name, to the mirror the page names.
    href = download.get_attribute("href")
    assert href.startswith("/rest-api/mariadb/11.4.2/mariadb-11.4.2.tar.gz?mirror=")
    assert (
        page.request.get(live_server.url + href, max_redirects=0)
        .headers["location"]
        .endswith("mariadb-11.4.2/source/mariadb-11.4.2.tar.gz")
    )
    # The real SHA-256 (Homebrew's formula pins it), ready to copy.
    assert page.locator("td.checksum code").filter(has_text="8c600e38adb8993").count() == 1
    assert page.get_by_role("button", name="Copy the SHA-256 of mariadb-11.4.2.tar.gz").is_visible()
    screenshot("release-page", full_page=True)
    # One click to the generator preset to the series, one to get the file.
    page.get_by_role("link", name="APT, YUM and zypper repository configuration").click()
    assert page.locator("#version").input_value() == "11.4"
    page.select_option("#distro", "ubuntu")
    page.select_option("#release", "noble")
    page.get_by_role("button", name="Show the configuration").click()
    assert "URIs: " in page.locator("#config-file").inner_text()
    assert "/repo/11.4/ubuntu" in page.locator("#config-file").inner_text()
