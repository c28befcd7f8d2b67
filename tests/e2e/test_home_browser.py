import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_in_a_real_browser_is_keyboard_navigable(live_server, page, screenshot):
    page.goto(live_server.url + "/")
    assert page.locator("h1").first.inner_text().startswith("Sustaining MariaDB")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    css_loaded = page.evaluate(
        "getComputedStyle(document.querySelector('.site-header')).backgroundColor"
    )
    assert css_loaded == "rgb(0, 53, 69)"
    screenshot("home-desktop", full_page=True)


def test_mobile_menu_opens_with_the_keyboard(live_server, page, screenshot):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    nav_link = page.locator("#site-nav").get_by_role("link", name="Usage statistics", exact=True)
    assert not nav_link.is_visible()
    page.locator(".nav-toggle").focus()
    page.keyboard.press("Enter")
    assert nav_link.is_visible()
    assert page.locator(".nav-toggle").get_attribute("aria-expanded") == "true"
    screenshot("home-mobile-menu")
