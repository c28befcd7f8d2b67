import pytest

from feedback.trends import demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_dashboard_charts_render_with_their_tables(live_server, page, screenshot):
    demo.load(log=lambda m: None)
    page.goto(live_server.url + "/feedback/?period=week")
    page.wait_for_function("window.portalCharts && Object.keys(window.portalCharts).length > 5")
    charts = page.evaluate("Object.keys(window.portalCharts)")
    assert {"active", "series", "b-os", "features"} <= set(charts)
    assert (
        page.locator("figure.chart-figure table").count()
        == page.locator("canvas[data-chart]").count()
    )
    screenshot("usage-dashboard", full_page=True)
