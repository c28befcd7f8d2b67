from pathlib import Path

import pytest

from benchmarks.importers import ImportFailed, detect, parse

DATA = Path(__file__).parent / "data"


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
    name, _, result = points(
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
        ("sysbench 1.0.20\nnothing here\n", "sysbench", "line 1: no sysbench statistics block"),
        ("hello", "", "not recognised"),
    ],
)
def test_malformed_input_names_the_line(text, importer, message):
    with pytest.raises(ImportFailed, match=message):
        parse(text, importer)
