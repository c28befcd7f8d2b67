"""Comparisons with noise, history and regressions, charts as images, presentation."""

import json
import re
from datetime import UTC, date, datetime

import pytest
from defusedxml import ElementTree
from django.test import override_settings
from pytest_django.asserts import assertContains

from benchmarks import stats
from benchmarks.models import Run, Suite
from tests.benchmarks.factories import MeasurementFactory, RunFactory, SuiteFactory

pytestmark = pytest.mark.django_db


def _measure(run, value, samples=(), metric="transactions per second", **parameters):
    samples = list(samples)
    return MeasurementFactory(
        run=run,
        metric=metric,
        value=value,
        parameters=parameters,
        samples=samples,
        minimum=min(samples) if samples else None,
        maximum=max(samples) if samples else None,
    )


def test_runs_measured_at_different_thread_counts_are_still_compared(client):
    suite = SuiteFactory()
    one, four = RunFactory(suite=suite, label="one"), RunFactory(suite=suite, label="four")
    _measure(one, 500.0, threads=1)
    _measure(four, 1200.0, threads=4)
    html = client.get(f"/benchmarks/{suite.slug}/compare/?a={one.pk}&b={four.pk}").content.decode()
    assert "no measurement in common" not in html
    assert "measured under different parameters: threads: 1 against 4" in html
    assert "2.4× faster (+140%)" in html
    assert "Not like for like" not in html  # same machine, OS and tool: only the threads differ


def test_the_run_picker_never_shows_two_identical_entries(client):
    suite = SuiteFactory()
    for day, variant in [(1, {"build": "a"}), (2, {"build": "a"}), (2, {"build": "b"})]:
        run = RunFactory(
            suite=suite, label="nightly", variant=variant, run_date=date(2026, 11, day)
        )
        _measure(run, 100.0, threads=8)
    twin = RunFactory(
        suite=suite, label="nightly", variant={"build": "b"}, run_date=date(2026, 11, 2)
    )
    _measure(twin, 101.0, threads=8)
    html = client.get(f"/benchmarks/{suite.slug}/compare/").content.decode()
    options = re.findall(r'<select id="a" name="a">(.*?)</select>', html)[0]
    texts = re.findall(r">([^<]+)</option>", options)
    assert len(texts) == 4 and len(set(texts)) == 4
    assert "nightly · build=a · threads=8 · 2026-11-01" in texts


def _history_suite(values):
    suite = SuiteFactory()
    for index, value in enumerate(values):
        run = RunFactory(
            suite=suite, label=f"build {index + 1}", order=index, run_date=date(2026, 11, 1 + index)
        )
        _measure(run, value, threads=8)
    return suite


def test_a_regression_beyond_the_noise_is_flagged_on_the_suite_page_and_in_the_feed(client):
    suite = _history_suite([1000, 1012, 995, 1004, 998, 1007, 1001, 640, 652, 645])
    page = client.get(f"/benchmarks/{suite.slug}/").content.decode()
    assert "Changes beyond the noise" in page
    assert re.search(
        r"<strong>Regression</strong>: transactions per second threads=8 in <a [^>]+>build 8</a>",
        page,
    )
    assert page.count("<strong>Regression</strong>") == 1
    feed = client.get(f"/benchmarks/{suite.slug}/regressions.atom")
    assert feed["Content-Type"].startswith("application/atom+xml")
    entries = ElementTree.fromstring(feed.content).findall("{http://www.w3.org/2005/Atom}entry")
    assert [e.find("{http://www.w3.org/2005/Atom}title").text for e in entries] == [
        f"Regression: transactions per second 1.57× slower (−36.2%) in build 8 ({suite.title})"
    ]
    assert len(client.get("/benchmarks/regressions.atom").content) > 0


def test_noise_alone_is_not_flagged(client):
    suite = _history_suite([1000, 1012, 995, 1004, 998, 1007, 1001, 1010, 993, 1003])
    page = client.get(f"/benchmarks/{suite.slug}/").content.decode()
    assert "changes-title" not in page
    assert 'id="history"' in page  # the history chart with its band is still shown


def test_any_parameter_can_be_the_x_axis(client):
    suite = SuiteFactory()
    run = RunFactory(suite=suite, label="driver")
    for batch in (8, 64):
        for threads in (1, 2):
            _measure(run, batch * threads, metric="score", batch=batch, threads=threads)
    default = client.get(f"/benchmarks/{suite.slug}/charts/score/").content.decode()
    spec = json.loads(
        default.split('id="chart-score-data" type="application/json">')[1].split("</script>")[0]
    )
    assert spec["x_title"] == "threads" and spec["labels"] == ["1", "2"]
    assert [d["label"] for d in spec["datasets"]] == ["driver · batch=8", "driver · batch=64"]
    by_batch = client.get(f"/benchmarks/{suite.slug}/charts/score/?x=batch").content.decode()
    spec = json.loads(
        by_batch.split('id="chart-score-data" type="application/json">')[1].split("</script>")[0]
    )
    assert spec["x_title"] == "batch" and spec["labels"] == ["8", "64"]
    assert client.get(f"/benchmarks/{suite.slug}/charts/score.svg?x=batch").status_code == 200


def test_undated_runs_side_by_side_are_not_a_history(client):
    suite = SuiteFactory()
    for index, value in enumerate([19543, 22104, 15288, 19968, 24063, 5000]):
        _measure(RunFactory(suite=suite, label=f"driver {index}", order=index), value)
    page = client.get(f"/benchmarks/{suite.slug}/").content.decode()
    assert 'id="history"' not in page and "changes-title" not in page


class TestOnTheDemoRuns:
    """Tests that read the seed-derived runs (loaded once for the class)."""

    def test_real_sweep_comparison_says_changed_or_within_noise_per_thread_count(
        self, client, demo
    ):
        suite = Suite.objects.get(slug="oltp-read-write-durability")
        a, b = suite.runs.get(label="flush-at-commit-1"), suite.runs.get(label="flush-at-commit-2")
        html = client.get(f"/benchmarks/{suite.slug}/compare/?a={a.pk}&b={b.pk}").content.decode()
        assert 'data-benchmark-chart="compare-transactions-per-second"' in html
        section = html.split('id="cmp-1"')[1].split("</section>")[0]
        rows = re.findall(r'<tr class="cmp-([a-z ]+)"><th scope="row">threads=(\d+)', section)
        assert [int(threads) for _, threads in rows] == [1, 2, 4, 8, 16, 32, 64]
        for css, threads in rows:
            mine = a.measurements.get(
                metric="transactions per second", parameters__threads=int(threads)
            )
            theirs = b.measurements.get(
                metric="transactions per second", parameters__threads=int(threads)
            )
            assert len(mine.samples) == len(theirs.samples) == 5  # five real repetitions each
            verdict = stats.compare_samples(mine.samples, theirs.samples)
            if verdict.word == "within noise":
                assert css == "same"
            else:
                assert css == ("better" if theirs.value > mine.value else "worse")
        assert "changed</span> (p = " in section or "within noise</span> (p = " in section

    def test_chart_images_by_url_with_cache_headers(self, client, demo):
        base = "/benchmarks/oltp-read-write-durability/charts/transactions-per-second"
        svg = client.get(f"{base}.svg")
        assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
        assert "max-age=3600" in svg["Cache-Control"] and "public" in svg["Cache-Control"]
        texts = [
            t.text
            for t in ElementTree.fromstring(svg.content).iter("{http://www.w3.org/2000/svg}text")
        ]
        assert "flush-at-commit-1" in texts and "64" in texts
        png = client.get(f"{base}.png")
        assert png.content.startswith(b"\x89PNG\r\n\x1a\n") and png["Content-Type"] == "image/png"
        again = client.get(f"{base}.png", HTTP_IF_NONE_MATCH=png["ETag"])
        assert again.status_code == 304
        assert (
            client.get(
                "/benchmarks/oltp-read-write-durability/charts/no-such-metric.svg"
            ).status_code
            == 404
        )
        page = client.get("/benchmarks/oltp-read-write-durability/").content.decode()
        assert f'href="{base}.svg"' in page and f'href="{base}.png"' in page

    def test_figures_are_scaled_and_rounded(self, client, demo):
        page = client.get("/benchmarks/oltp-read-write-durability/").content.decode()
        tables = "".join(re.findall(r"<table>.*?</table>", page, flags=re.S))
        assert not re.search(r"\d\.\d{5,}", tables)
        latency = json.loads(
            page.split('id="chart-average-latency-data" type="application/json">')[1].split(
                "</script>"
            )[0]
        )
        assert latency["unit"] == "ms"

    def test_pages_answer_without_error(self, client, demo):
        for suite in Suite.objects.all():
            for url in [f"/benchmarks/{suite.slug}/", f"/benchmarks/{suite.slug}/regressions.atom"]:
                assert client.get(url).status_code == 200, url
            run = Run.objects.filter(suite=suite).first()
            assert client.get(f"/benchmarks/{suite.slug}/runs/{run.pk}/").status_code == 200
        # run ids are numbers: anything else is a 400 naming the parameter (core.numbers)
        refused = client.get("/benchmarks/thread-pool/compare/?a=x&b=y", HTTP_ACCEPT="text/plain")
        assert refused.status_code == 400
        assert "“a” must be a whole number written with the digits 0-9" in refused.text
        assert client.get("/benchmarks/thread-pool/?x=nonsense").status_code == 200
        # A NUL byte is refused before any view runs (core.hostile).
        assert client.get("/benchmarks/thread-pool/compare/?a=x&b=%00").status_code == 400

    def test_the_real_history_flags_the_smaller_buffer_pool_and_nothing_else(self, client, demo):
        from benchmarks import history

        suite = Suite.objects.get(slug="oltp-read-write-history")
        runs = list(suite.runs.prefetch_related("measurements"))
        found = history.changes(runs)
        assert {(c["run"].label, c["kind"]) for c in found} == {("run 09", "regression")}
        assert (
            "innodb-buffer-pool-size=8M"
            in Run.objects.get(suite=suite, label="run 09").server_config
        )
        feed = client.get("/benchmarks/regressions.atom").content.decode()
        assert "Regression: transactions per second" in feed and "in run 09" in feed


ATOM = "{http://www.w3.org/2005/Atom}"


@override_settings(SITE_URL="https://mariadb.example.org")
def test_feed_entries_have_absolute_unique_ids_and_the_date_the_change_was_measured(client):
    suite = SuiteFactory()
    for index, value in enumerate([1000, 1012, 995, 1004, 998, 1007, 1001, 640, 652]):
        run = RunFactory(
            suite=suite,
            label=f"build {index + 1}",
            order=index,
            run_date=date(2026, 11, 1 + index),
            # build 8 was recorded with its start time; the others with their date only
            measured_at=datetime(2026, 11, 8, 9, 30, 15, tzinfo=UTC) if index == 7 else None,
        )
        _measure(run, value, threads=8)
        _measure(run, value / 2, threads=16)
    for url in [f"/benchmarks/{suite.slug}/regressions.atom", "/benchmarks/regressions.atom"]:
        entries = ElementTree.fromstring(client.get(url).content).findall(f"{ATOM}entry")
        ids = [entry.find(f"{ATOM}id").text for entry in entries]
        assert len(ids) == 2 and len(set(ids)) == 2
        run = Run.objects.get(suite=suite, label="build 8")
        page = f"https://mariadb.example.org/benchmarks/{suite.slug}/runs/{run.pk}/"
        assert sorted(ids) == [
            f"{page}#transactions-per-second-threads-16",
            f"{page}#transactions-per-second-threads-8",
        ]
        for entry in entries:
            assert entry.find(f"{ATOM}published").text == "2026-11-08T09:30:15+00:00"
            assert entry.find(f"{ATOM}updated").text == "2026-11-08T09:30:15+00:00"
            assert "Measured on 2026-11-08 at 09:30:15 UTC" in entry.find(f"{ATOM}summary").text


def test_a_feed_entry_of_a_run_measured_on_a_date_is_dated_that_day(client):
    suite = _history_suite([1000, 1012, 995, 1004, 998, 1007, 1001, 640])
    feed = client.get(f"/benchmarks/{suite.slug}/regressions.atom").content
    (entry,) = ElementTree.fromstring(feed).findall(f"{ATOM}entry")
    assert entry.find(f"{ATOM}updated").text == "2026-11-08T00:00:00+00:00"
    assert entry.find(f"{ATOM}id").text.startswith("http://")


def test_no_noise_band_is_drawn_where_the_detector_does_not_judge(client):
    # Build 3 is half the two before it: too few runs before it for the lookback z-score,
    # so it is not flagged; the table must not show a band it seems to leave unflagged.
    suite = _history_suite([1000, 1010, 500, 1005, 995, 1002])
    response = client.get(f"/benchmarks/{suite.slug}/")
    assertContains(
        response,
        '<tr><th scope="row">2026-11-03</th><td class="num">build 3</td>'
        '<td class="num">500</td><td class="num">none: 2 runs before, 3 needed</td>'
        '<td class="num"></td><td class="num"></td></tr>',
        html=True,
    )
    assertContains(
        response,
        "<p>Each point is one run, along the date measured. The band is the mean ± 2 standard "
        "deviations of the runs before it (at most 10, since the last flagged change); a run "
        "more than 5 standard deviations from that mean is flagged as a change beyond the "
        "noise. A run with fewer than 3 runs before it is not judged and has no band.</p>",
        html=True,
    )


def test_history_labels_tell_runs_in_the_same_minute_apart(client):
    suite = SuiteFactory()
    # run-01 and run-02 of the demo history: 31 s apart, in the same minute
    for index, second in enumerate([15, 46, 18, 49]):
        minute = 35 + index // 2
        run = RunFactory(
            suite=suite,
            label=f"run {index + 1:02d}",
            order=index,
            run_date=date(2026, 11, 23),
            measured_at=datetime(2026, 11, 23, 8, minute, second, tzinfo=UTC),
        )
        _measure(run, 1000 + index, threads=8)
    page = client.get(f"/benchmarks/{suite.slug}/").content.decode()
    spec = json.loads(
        page.split('id="history-transactions-per-second-0-data" type="application/json">')[1].split(
            "</script>"
        )[0]
    )
    assert spec["labels"] == [
        "2026-11-23 08:35:15",
        "2026-11-23 08:35:46",
        "2026-11-23 08:36:18",
        "2026-11-23 08:36:49",
    ]
