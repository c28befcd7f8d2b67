import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_suite_page_draws_its_charts_with_tables(live_server, page, screenshot):
    from benchmarks import demo

    demo.load(log=lambda m: None)
    page.goto(live_server.url + "/benchmarks/thread-pool/")
    page.wait_for_function(
        "window.benchmarkCharts && Object.keys(window.benchmarkCharts).length >= 2"
    )
    assert (
        page.locator("canvas[data-benchmark-chart]").count() == page.locator("figure table").count()
    )
    legend = page.evaluate("window.benchmarkCharts['chart-1'].data.datasets.map(d => d.label)")
    assert legend == ["thread-per-connection", "pool-of-threads"]
    screenshot("benchmark-thread-pool", full_page=True)
    page.goto(live_server.url + "/benchmarks/jdbc-drivers/")
    page.wait_for_function("window.benchmarkCharts && window.benchmarkCharts['chart-1']")
    with page.expect_download() as download:
        page.locator("[data-export-chart='chart-1']").click()
    assert download.value.suggested_filename == "chart-1.png"
