import pytest

from tests.artifacts import ARTIFACTS

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
    legend = page.evaluate(
        "window.benchmarkCharts['chart-transactions-per-second'].legend.legendItems.map(i => i.text)"
    )
    assert legend == ["thread-per-connection", "pool-of-threads"]
    screenshot("benchmark-thread-pool", full_page=True)
    # the pictures in docs/benchmarks.md (docs/img/ holds copies of these): the page as it
    # opens at 1280 and 390 px, and its section across server versions
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot("benchmark-thread-pool-1280")
    versions = page.locator("#versions")
    versions.scroll_into_view_if_needed()
    box = versions.bounding_box()
    page.screenshot(
        path=str(ARTIFACTS / "benchmark-thread-pool-versions-1280.png"),
        full_page=True,
        clip={"x": 0, "y": box["y"] + page.evaluate("scrollY") - 16, "width": 1280, "height": 160},
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("scrollTo(0, 0)")
    screenshot("benchmark-thread-pool-390")
    # real runs against three releases (bench/sysbench_runs.sh versions): drawn across them
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + "/benchmarks/oltp-read-write-server-versions/#versions")
    page.wait_for_function(
        "window.benchmarkCharts && Object.keys(window.benchmarkCharts)"
        ".filter(k => k.startsWith('versions-')).length === 8"
    )
    first = page.locator("figure[id^='versions-']").first
    first.locator("summary", has_text="Data table").click()
    shown = first.locator("tbody th").all_inner_texts()
    assert [text.strip() for text in shown] == ["10.11.18", "10.11.19", "11.8.9"]
    first.scroll_into_view_if_needed()
    first.screenshot(path=str(ARTIFACTS / "benchmark-server-versions-1280.png"))
    page.goto(live_server.url + "/benchmarks/jdbc-drivers/")
    page.wait_for_function(
        "window.benchmarkCharts && window.benchmarkCharts['chart-do-1-unprepared-tcp']"
    )
    with page.expect_download() as download:
        page.locator("[data-export-chart='chart-do-1-unprepared-tcp']").click()
    assert download.value.suggested_filename == "chart-do-1-unprepared-tcp.png"


def test_a_sweep_comparison_with_noise_bands_reflows_on_a_phone_in_dark_mode(live_server, browser):
    from benchmarks import demo
    from benchmarks.models import Run

    demo.load(log=lambda m: None)
    a, b = (
        Run.objects.get(suite__slug="oltp-read-write-durability", label=f"flush-at-commit-{n}")
        for n in (1, 2)
    )
    context = browser.new_context(viewport={"width": 320, "height": 800}, color_scheme="dark")
    phone = context.new_page()
    phone.goto(
        f"{live_server.url}/benchmarks/oltp-read-write-durability/compare/?a={a.pk}&b={b.pk}"
    )
    phone.wait_for_function(
        "window.benchmarkCharts && window.benchmarkCharts['compare-transactions-per-second']"
    )
    datasets = phone.evaluate(
        "window.benchmarkCharts['compare-transactions-per-second'].data.datasets.map(d => d.label)"
    )
    assert datasets == [
        "flush-at-commit-1",
        "band-high",
        "band-low",
        "flush-at-commit-2",
        "band-high",
        "band-low",
    ]
    assert phone.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert phone.locator("tr.cmp-better, tr.cmp-worse, tr.cmp-same").count() >= 7
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "benchmark-compare-320-dark.png"), full_page=True)
    context.close()
