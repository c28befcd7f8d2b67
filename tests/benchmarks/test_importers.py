import json
from pathlib import Path

import pytest

from benchmarks.importers import ImportFailed, detect, parse

DATA = Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "golden.json").read_text())


def points(name, importer="", parameters=None):
    return parse((DATA / name).read_text(), importer, parameters)


def by_metric(result):
    return {(p.metric, p.label): p for p in result[2]}


@pytest.mark.parametrize(
    ("name", "importer", "threads", "tps", "p95"),
    [
        ("sysbench-0.4.12.txt", "sysbench", 2, 7694.26, 0.31),
        ("sysbench-0.5.txt", "sysbench", 64, 7645.33, 10.88),
        ("sysbench-1.0.20-reference.txt", "sysbench", 20, 71.30, 153.02),
        ("sysbench-1.0.20-real-pool-16.txt", "sysbench", 16, 1333.06, 17.95),
    ],
)
def test_sysbench_layouts_are_read_from_their_blocks(name, importer, threads, tps, p95):
    result = points(name)
    assert result[0] == importer
    metrics = by_metric(result)
    assert metrics[("transactions per second", "")].value == tps
    assert metrics[("transactions per second", "")].parameters == {"threads": threads}
    assert metrics[("95th percentile latency", "")].value == p95
    assert not metrics[("95th percentile latency", "")].higher_is_better


def test_sysbench_1_1_throughput_block():
    metrics = by_metric(points("sysbench-1.1-throughput.txt"))
    assert metrics[("events per second", "")].value == 74890.66
    assert metrics[("average latency", "")].value == 28.34
    assert metrics[("total time", "")].value == 600.0446


def test_ycsb_text_and_json():
    text = by_metric(points("ycsb.txt"))
    assert text[("throughput", "")].value == 199.6087668170386
    assert text[("read 95th percentile latency", "")].value == 604
    assert text[("update average latency", "")].value == 618.8548876745598
    json_ = by_metric(points("ycsb.json", parameters={"threads": 8}))
    assert json_[("throughput", "")].parameters == {"threads": 8}


def test_jmh_and_hyperfine():
    jmh = points("jmh.json")[2][0]
    assert (jmh.label, jmh.value, jmh.unit, jmh.higher_is_better) == (
        "wellHelloThere",
        3.3762388731228185e9,
        "ops/s",
        True,
    )
    assert len(jmh.samples) == 3
    hyperfine = points("hyperfine.json")[2][0]
    assert (hyperfine.label, hyperfine.value, hyperfine.higher_is_better) == (
        "sleep 0.01",
        0.013317239025420563,
        False,
    )


def test_wide_table():
    name, _, result, _ = points(
        "group-commit.csv", parameters={"metric": "transactions per second", "unit": "tps"}
    )
    assert name == "table"
    assert [(p.label, p.parameters, p.value) for p in result][-2:] == [
        ("Nofix", {"Threads": 256}, 57.62),
        ("Group Commit fix", {"Threads": 256}, 1669.11),
    ]


def test_detection():
    assert detect((DATA / "jmh.json").read_text()) == "jmh"
    assert detect((DATA / "hyperfine.json").read_text()) == "hyperfine"
    assert detect((DATA / "ycsb.txt").read_text()) == "ycsb"
    assert detect((DATA / "group-commit.csv").read_text()) == "table"


@pytest.mark.parametrize(
    ("text", "importer", "message"),
    [
        ("Threads,A\n1,2\n2,fast\n", "table", "line 3: column 'A': expected a number"),
        ("Threads,A,B\n1,2\n", "table", "line 2: expected 3 columns"),
        ("[OVERALL], RunTime(ms), 5\nbroken line\n[READ] Operations 5\n", "ycsb", "line 3"),
        ('[{"jmhVersion": \n', "jmh", "line 2: not valid JSON"),
        ("sysbench 1.0.20\nnothing here\n", "sysbench", "line 2: no sysbench statistics block"),
        ("hello", "", "not recognised"),
    ],
)
def test_malformed_input_names_the_line(text, importer, message):
    with pytest.raises(ImportFailed, match=message):
        parse(text, importer)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_real_outputs_made_here_keep_every_figure(name):
    """Golden files: outputs of Debian's sysbench 1.0.20 and hyperfine 1.15 on this machine."""
    result = points(name)
    expected = GOLDEN[name]
    assert (result.importer, result.metadata.get("tool")) == (
        expected["importer"],
        expected["tool"],
    )
    assert [
        [p.label, p.metric, p.value, p.unit, p.higher_is_better, p.parameters, len(p.samples)]
        for p in result.points
    ] == expected["points"]


def test_sysbench_keeps_counts_errors_latency_sum_and_fairness():
    metrics = by_metric(points("sysbench-1.0.20-reference.txt"))
    figures = {
        metric: metrics[(metric, "")].value
        for metric in [
            "read queries",
            "write queries",
            "other queries",
            "total queries",
            "transactions",
            "queries",
            "ignored errors per second",
            "reconnects per second",
            "total time",
            "events",
            "latency sum",
            "events per thread (average)",
            "events per thread (stddev)",
            "execution time per thread (average)",
            "execution time per thread (stddev)",
        ]
    }
    assert figures == {
        "read queries": 278914,
        "write queries": 289077,
        "other queries": 43198,
        "total queries": 611189,
        "transactions": 21515,
        "queries": 611189,
        "ignored errors per second": 0.49,
        "reconnects per second": 0,
        "total time": 600.0551,
        "events": 42346,
        "latency sum": 1199929.87,
        "events per thread (average)": 21173,
        "events per thread (stddev)": 54,
        "execution time per thread (average)": 599.9649,
        "execution time per thread (stddev)": 0.02,
    }
    assert not metrics[("ignored errors per second", "")].higher_is_better
    assert (
        not metrics[("latency sum", "")].headline
        and metrics[("transactions per second", "")].headline
    )


def test_sysbench_any_percentile_and_the_tool_version():
    result = points("sysbench-1.0.20-oltp-rw-p99-intervals.txt")
    metrics = by_metric(result)
    assert metrics[("99th percentile latency", "")].value == 223.34
    assert ("95th percentile latency", "") not in metrics
    assert result.metadata["tool"] == "sysbench 1.0.20"
    assert result.metadata["intervals"][0].startswith("[ 1s ] thds: 4 tps: 97.85")
    assert points("sysbench-0.4.12.txt").metadata["tool"] == "sysbench 0.4.12"


def _cuts(text):
    """Every way of cutting a report short after its statistics begin: at each line end, and
    inside the last line."""
    lines = text.rstrip("\n").splitlines(keepends=True)
    start = next(
        i
        for i, line in enumerate(lines)
        if line.strip() in ("SQL statistics:", "General statistics:", "CPU speed:", "Throughput:")
    )
    for end in range(start + 1, len(lines)):
        if lines[end - 1].strip():
            yield end, "".join(lines[:end])
    last = lines[-1].rstrip("\n")
    yield len(lines), "".join(lines[:-1]) + last[:-1]


@pytest.mark.parametrize(
    "name",
    [
        "sysbench-1.0.20-oltp-rw-p99-intervals.txt",
        "sysbench-1.0.20-cpu-p99.txt",
        "sysbench-1.0.20-memory.txt",
        "sysbench-1.1-throughput.txt",
    ],
)
def test_a_sysbench_report_cut_anywhere_is_refused_with_the_line_it_stopped_at(name):
    text = (DATA / name).read_text()
    parse(text, "sysbench")  # whole: accepted
    for line, cut in _cuts(text):
        with pytest.raises(ImportFailed) as refused:
            parse(cut, "sysbench")
        assert f"line {line}" in str(refused.value) or refused.value.line == line, (
            line,
            str(refused.value),
        )


def test_ycsb_keeps_every_row_per_operation():
    metrics = by_metric(points("ycsb.txt"))
    assert metrics[("read minimum latency", "")].value == 254
    assert metrics[("read maximum latency", "")].value == 3397
    assert metrics[("read 99th percentile latency", "")].value == 767
    assert metrics[("read returned OK", "")].value == 5059
    assert metrics[("update operations", "")].value == 4941
    assert metrics[("cleanup average latency", "")].value == 268
    assert metrics[("run time", "")].value == 50098
    assert metrics[("total_gc_time time", "")].value == 6
    assert not metrics[("total_gcs count", "")].higher_is_better


def test_ycsb_cut_inside_an_operation_is_refused():
    text = (DATA / "ycsb.txt").read_text().split("[UPDATE], AverageLatency")[0]
    with pytest.raises(ImportFailed, match="incomplete: UPDATE has an operation count"):
        parse(text, "ycsb")
    with pytest.raises(ImportFailed, match="not valid YCSB JSON"):
        parse((DATA / "ycsb.json").read_text()[:-20], "ycsb")


def test_jmh_keeps_jdk_vm_params_and_iterations():
    result = points("jmh.json")
    assert result.metadata["jdk"] == "1.8.0_202"
    assert result.metadata["vm"] == "Java HotSpot(TM) 64-Bit Server VM 25.202-b08"
    assert result.metadata["tool"] == "JMH 1.29"
    score = by_metric(result)[("score", "wellHelloThere")]
    assert score.samples == [3.376842765688582e9, 3.37651988895058e9, 3.375353964729294e9]
    assert (
        by_metric(result)[("score error (99.9%)", "wellHelloThere")].value == 1.4287985743935993e7
    )
    with_params = json.loads((DATA / "jmh.json").read_text())
    with_params[0]["params"] = {"driver": "mariadb", "batch": "64"}
    with_params.append({**with_params[0], "params": {"driver": "mariadb", "batch": "8"}})
    scan = parse(json.dumps(with_params), "jmh")
    assert [p.parameters for p in scan.points if p.metric == "score"] == [
        {"threads": 1, "driver": "mariadb", "batch": 64},
        {"threads": 1, "driver": "mariadb", "batch": 8},
    ]


def test_hyperfine_scans_are_one_series_with_the_parameter_as_x():
    scan = points("hyperfine-1.15-parameter-scan.json").points
    walls = [p for p in scan if p.metric == "wall time"]
    assert {p.label for p in walls} == {"head -c {size}M /dev/zero | gzip -1 > /dev/null"}
    assert [p.parameters["size"] for p in walls] == [1, 2, 3, 4]
    assert all(len(p.samples) == 5 for p in walls)
    listed = points("hyperfine-1.15-list.json").points
    assert {p.label for p in listed} == {"gzip -{level} -c /etc/services > /dev/null"}
    plain = points("hyperfine-1.15-two-commands.json").points
    assert {p.label for p in plain} == {"sleep 0.01", "sleep 0.02"}


def test_sysbench_latency_histogram_is_kept():
    """Real output of `sysbench cpu --time=1 --histogram=on run` made here."""
    result = points("sysbench-1.0.20-cpu-histogram.txt")
    histogram = result.metadata["latency histogram (ms, count)"]
    text = (DATA / "sysbench-1.0.20-cpu-histogram.txt").read_text()
    rows = [line for line in text.splitlines() if "|" in line]
    assert len(histogram) == len(rows) and histogram[:2] == [[0.196, 6], [0.199, 176]]
    assert sum(count for _, count in histogram) == by_metric(result)[("events", "")].value
