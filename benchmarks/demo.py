"""Benchmark suites: figures from the seed articles exactly as they give them, and real
sysbench runs made on this machine by bench/sysbench_runs.sh (raw files in demo_data/)."""

import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

from django.db import transaction

from benchmarks.models import Measurement, Run, Suite, server_version_fields
from benchmarks.services import importing
from foundation.models import NewsPost

SYSBENCH = Path(__file__).resolve().parent / "demo_data" / "sysbench"

JDBC_ARTICLE = "https://mariadb.org/on-performance-of-jdbc-drivers/"
JDBC_PROGRAM = "single-threaded Java test program (runs each query N times)"
# The article says what it ran on and how each driver was set up; not when, nor which server.
JDBC_ENV = {
    "hardware": "the author's own workstation",
    "os": "Windows Server 2008 R2",
    "source": "“On performance of JDBC drivers”, mariadb.org",
    "source_url": JDBC_ARTICLE,
    "unstated": ["run_date", "server_version"],
}
JDBC_CLIENTS = {
    "ConnectorJ-5.1.24": f"{JDBC_PROGRAM}; ConnectorJ 5.1.24, useConfigs=maxPerformance in the URL; named pipe: NamedPipeSocketFactory",
    "MariaDB-JDBC-1.1.2": f"{JDBC_PROGRAM}; MariaDB JDBC 1.1.2, client-side prepared statements",
    "Drizzle-JDBC-1.3-SNAPSHOT": f"{JDBC_PROGRAM}; Drizzle JDBC 1.3-SNAPSHOT",
    "Drizzle-JDBC-1.3-SNAPSHOT with the one-line fix": f"{JDBC_PROGRAM}; Drizzle JDBC 1.3-SNAPSHOT, its hexdump logging put under a FINEST level check",
    "C client (native)": "the native C client library, prepared DO 1, over TCP and a named pipe",
}
# run label: [(metric, value)], queries per second
JDBC = {
    "ConnectorJ-5.1.24": [("DO 1, unprepared, TCP", 19543), ("SELECT 1, unprepared, TCP", 17004),
                          ("DO 1, prepared, TCP", 20096), ("DO 1, prepared, named pipe", 29542)],
    "MariaDB-JDBC-1.1.2": [("DO 1, unprepared, TCP", 22104), ("SELECT 1, unprepared, TCP", 19305),
                           ("DO 1, prepared, TCP", 22183)],
    "Drizzle-JDBC-1.3-SNAPSHOT": [("DO 1, unprepared, TCP", 15288), ("SELECT 1, unprepared, TCP", 13410)],
    "Drizzle-JDBC-1.3-SNAPSHOT with the one-line fix": [("DO 1, unprepared, TCP", 19968),
                                                        ("SELECT 1, unprepared, TCP", 16824)],
    "C client (native)": [("DO 1, prepared, TCP", 24063), ("DO 1, prepared, named pipe", 33122)],
}  # fmt: skip

# "Tests were repeated recently to also compare with RocksDB (MariaDB 10.2.8)": the
# article (last updated 2019-04-29) says neither the date measured nor the OS.
ENGINES_ENV = {
    "hardware": "SSD, 16 GB RAM; 2 GB buffer pool / TokuDB cache / RocksDB block cache",
    "server_version": "10.2.8",
    "client": "NEO (Nexedi) import and rebalancing",
    "source": "“Optimising MariaDB for Big Data”, Nexedi (last updated 2019-04-29)",
    "unstated": ["run_date", "os"],
}
# engine: [(step, "time as written", hours, size GB)]; None where the article has no figure
ENGINES = {
    "InnoDB": [("import 126GB of data", "20h24", 20 + 24 / 60, 50.6), ("tweak: 1->2", "9h14", 9 + 14 / 60, 76.6),
               ("tweak: 2->4", "5h12", 5 + 12 / 60, 102), ("deletion of dropped cells", "69h16", 69 + 16 / 60, 102),
               ("optimize tables", "68m14", (68 * 60 + 14) / 3600, 51.7)],
    "RocksDB": [("import 126GB of data", "29h22", 29 + 22 / 60, 40.6), ("tweak: 1->2", "14h20", 14 + 20 / 60, 59),
                ("tweak: 2->4", "6h41", 6 + 41 / 60, 80)],
    "TokuDB": [("import 126GB of data", "13h14", 13 + 14 / 60, 33.1), ("tweak: 1->2", "5h09", 5 + 9 / 60, 51.8),
               ("tweak: 2->4", "2h27", 2 + 27 / 60, 70.8), ("deletion of dropped cells", "2h30", 2.5, 93.3),
               ("optimize tables", "10m32", (10 * 60 + 32) / 3600, 66.7)],
}  # fmt: skip
# (title, hardware, OS, client, runs): the articles name no date, and measure no server.
# A figure is (metric, value, unit[, as written]): the article gives whole cycles ("6"),
# which read "6.00" at three significant figures, a precision it does not claim.
MICRO: list[tuple[str, str, str, str, list[tuple[str, list[tuple[Any, ...]]]]]] = [
    ("Dynamic linking costs two cycles", "Core 2 Duo 2.4 GHz", "Linux amd64", "a loop of 1,000,000,000 calls of a one-line library function", [
        ("Static linking", [("total time", 2.54, "s"), ("CPU cycles per iteration", 6, "cycles", "6")]),
        ("Dynamic linking", [("total time", 3.38, "s"), ("CPU cycles per iteration", 8, "cycles", "8")]),
    ]),
    ("Micro-benchmarking pthread_cond_broadcast()", "Intel quad Core i7 with hyperthreading", "", "5000 threads waiting on a condition, then woken", [
        ("pthread_cond_broadcast()", [("time to wake all threads", 46.9, "ms")]),
        ("pthread_cond_signal() per thread", [("time to wake all threads", 17.6, "ms")]),
    ]),
]  # fmt: skip


def _manual_run(suite, label, order, environment, rows):
    run = Run.objects.create(
        suite=suite, label=label, order=order, status=Run.Status.PUBLISHED, **environment
    )
    Measurement.objects.bulk_create(
        [
            Measurement(
                run=run,
                metric=metric,
                unit=unit,
                higher_is_better=better,
                value=value,
                display=display,
            )
            for metric, value, unit, better, display in rows
        ]
    )


def _suite(slug, title, summary, body="", post_slug=None):
    suite, _ = Suite.objects.update_or_create(
        slug=slug,
        defaults={
            "title": title,
            "summary": summary,
            "body": body,
            "is_published": True,
            "news_post": NewsPost.objects.filter(slug=post_slug).first() if post_slug else None,
        },
    )
    suite.runs.all().delete()
    suite.attachments.all().delete()
    return suite


def _environment(directory=SYSBENCH, server="server"):
    facts = dict(
        line.split(": ", 1)
        for line in (directory / "environment.txt").read_text().splitlines()
        if ": " in line
    )
    # "/usr/sbin/mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu …": stored
    # as the release, 10.11.19, with what the server printed beside it
    found = re.search(r"Ver (\S+)", facts.get(server, ""))
    printed = found[1] if found else ""
    return {
        "hardware": f"{facts.get('cpu', '')}, {facts.get('memory', '')} RAM",
        "os": facts.get("os", ""),
        **server_version_fields(printed),
        "client": facts.get("client", ""),
        "run_date": date.fromisoformat(facts["date"]) if "date" in facts else None,
        # each fact with its label, as the script wrote it ("seconds per point: 5; …")
        "notes": "; ".join(
            f"{key}: {facts[key]}" for key in ("seconds per point", "repetitions") if key in facts
        ),
        "source": "bench/sysbench_runs.sh on this project's machine, shared with other work",
        "status": Run.Status.PUBLISHED,
    }


def _sysbench_suite(slug, title, summary, variants, config_key):
    suite = _suite(slug, title, summary)
    environment = _environment()
    for order, (variant, config) in enumerate(variants.items()):
        run = Run.objects.create(
            suite=suite,
            label=variant,
            order=order,
            variant={config_key: variant},
            server_config=config,
            **environment,
        )
        for path in sorted((SYSBENCH / variant).glob("threads-*.txt")):
            importing.add_raw_output(
                run, raw=path.read_bytes(), file_name=f"{variant}-{path.name}", importer="sysbench"
            )
    return suite


READ_WRITE = SYSBENCH / "read-write"
VERSIONS = SYSBENCH / "versions"
# How each server of the versions series came to run here (bench/sysbench_runs.sh versions).
VERSION_SOURCES = {
    "10.11.18": "Debian 12's package mariadb-server-core 1:10.11.18-0+deb12u1, unpacked "
    "beside the installed server",
    "10.11.19": "Debian 12's package mariadb-server-core 1:10.11.19-0+deb12u1, the server "
    "installed on this machine",
    "11.8.9": "Debian 13's package mariadb-server-core 1:11.8.9+ds-0+deb13u1, run on this "
    "Debian 12 machine with Debian 13's C and C++ libraries beside it",
}


def _versions_suite():
    """oltp_read_write at 1 and 8 threads against three server releases side by side, five
    alternating repetitions per point (bench/sysbench_runs.sh versions)."""
    suite = _suite(
        "oltp-read-write-server-versions",
        "Read/write OLTP across server versions: 10.11.18, 10.11.19 and 11.8.9",
        "sysbench 1.0 oltp_read_write at 1 and 8 threads against three MariaDB releases from "
        "Debian's packages on this project's 2-core machine, the three servers running side "
        "by side with the same options and taking turns, five repetitions of 10 s per point.",
    )
    suite.history_axis = Suite.HistoryAxis.VERSION
    suite.save(update_fields=["history_axis"])
    for order, (version, source) in enumerate(VERSION_SOURCES.items()):
        environment = _environment(VERSIONS, server=f"server-{version}")
        run = Run.objects.create(
            suite=suite,
            label=f"MariaDB {environment['server_version']}",
            order=order,
            server_config="--innodb-flush-log-at-trx-commit=2 --innodb-buffer-pool-size=512M",
            **{**environment, "notes": f"{environment['notes']}; {source}"},
        )
        for path in sorted((VERSIONS / version).glob("threads-*-rep-*.txt")):
            importing.add_raw_output(
                run, raw=path.read_bytes(), file_name=f"{version}-{path.name}", importer="sysbench"
            )


def _read_write_suites():
    """oltp_read_write over 1-64 threads, 5 alternating repetitions per point, two
    durability settings; and a history of 12 runs at 8 threads (bench/sysbench_runs.sh)."""
    environment = _environment(READ_WRITE)
    suite = _suite(
        "oltp-read-write-durability",
        "Read/write OLTP: redo log flushed at each commit or once a second",
        "sysbench 1.0 oltp_read_write from 1 to 64 threads on this project's 2-core machine, "
        "innodb_flush_log_at_trx_commit=1 against =2, each point repeated five times with the two "
        "servers taking turns, so the comparison can tell a change from the noise.",
    )
    for order, setting in enumerate(["1", "2"]):
        label = f"flush-at-commit-{setting}"
        run = Run.objects.create(
            suite=suite,
            label=label,
            order=order,
            variant={"innodb_flush_log_at_trx_commit": int(setting)},
            server_config=f"--innodb-flush-log-at-trx-commit={setting}",
            **environment,
        )
        for path in sorted((READ_WRITE / label).glob("threads-*-rep-*.txt")):
            importing.add_raw_output(
                run, raw=path.read_bytes(), file_name=f"{label}-{path.name}", importer="sysbench"
            )
    runs_file = READ_WRITE / "history" / "runs.txt"
    if not runs_file.exists():
        return
    history = _suite(
        "oltp-read-write-history",
        "Read/write OLTP over time: one point, run after run",
        "The same sysbench oltp_read_write point (8 threads, 10 s) run twelve times in a row, three "
        "repetitions each. From run 9 the server has an 8 MiB buffer pool instead of 512 MiB: a change "
        "made on purpose, so the regression detector has a real step to find among real noise.",
    )
    for line in runs_file.read_text().splitlines():
        name, rest = line.split(": ", 1)
        stamp, setting = rest.split(" ", 1)
        number = int(name.split("-")[1])
        run = Run.objects.create(
            suite=history,
            label=f"run {number:02d}",
            order=number,
            server_config=f"--innodb-flush-log-at-trx-commit=2 --{setting.replace('_', '-')}",
            **{
                **environment,
                "run_date": date.fromisoformat(stamp[:10]),
                "measured_at": datetime.fromisoformat(stamp.replace("Z", "+00:00")),
                "notes": f"started {stamp}; 3 repetitions of 10 s",
            },
        )
        for path in sorted((READ_WRITE / "history").glob(f"{name}-rep-*.txt")):
            importing.add_raw_output(
                run, raw=path.read_bytes(), file_name=path.name, importer="sysbench"
            )


@transaction.atomic
def load(log):
    jdbc = _suite(
        "jdbc-drivers",
        "Performance of JDBC drivers",
        "Queries per second of a single-threaded loop running DO 1 and SELECT 1 through three JDBC "
        "drivers and the C client, unprepared and prepared, over TCP and a named pipe.",
    )
    for order, (label, rows) in enumerate(JDBC.items()):
        environment = {**JDBC_ENV, "client": JDBC_CLIENTS[label]}
        _manual_run(
            jdbc, label, order, environment, [(m, v, "queries/s", True, "") for m, v in rows]
        )

    engines = _suite(
        "storage-engines-big-data",
        "Storage engines for big data: InnoDB, RocksDB and TokuDB",
        "Time spent and resulting size when importing 126 GB into a NEO database and rebalancing it "
        "over more nodes, per storage engine.",
        post_slug="optimising-mariadb-for-big-data",
    )
    for order, (engine, steps) in enumerate(ENGINES.items()):
        engine_rows = [
            (f"{step}: time", hours, "hours", False, written) for step, written, hours, _ in steps
        ]
        engine_rows += [
            (f"{step}: resulting size", size, "GB", False, "")
            for step, _, _, size in steps
            if size is not None
        ]
        _manual_run(engines, engine, order, ENGINES_ENV, engine_rows)

    micro = _suite(
        "micro-benchmarks",
        "Micro-benchmarks: dynamic linking and waking threads",
        "Two small measurements behind MariaDB design decisions: the cost of a dynamically linked "
        "call, and pthread_cond_broadcast() against one signal per thread.",
    )
    order = 0
    for title, hardware, os, client, runs in MICRO:
        for label, figures in runs:
            _manual_run(
                micro,
                label,
                order,
                {
                    "hardware": hardware,
                    "os": os,
                    "client": client,
                    "notes": title,
                    "source": f"“{title}”, a blog post on the group commit work",
                    "unstated": ["run_date", "server_version", *([] if os else ["os"])],
                },
                [
                    (metric, value, unit, False, "".join(written))
                    for metric, value, unit, *written in figures
                ],
            )
            order += 1

    if (SYSBENCH / "environment.txt").exists():
        _sysbench_suite(
            "thread-pool",
            "Thread pool: pool-of-threads against thread-per-connection",
            "sysbench 1.0 OLTP read-only against MariaDB on this project's 2-core machine, from 1 to "
            "128 client threads, with each thread-handling mode on an otherwise identical server.",
            {
                "thread-per-connection": "--thread-handling=one-thread-per-connection",
                "pool-of-threads": "--thread-handling=pool-of-threads",
            },
            "thread_handling",
        )
        _sysbench_suite(
            "durable-writes-binlog",
            "Durable writes with and without the binary log",
            "sysbench 1.0 OLTP write-only with innodb_flush_log_at_trx_commit=1, with the binary log on "
            "(sync_binlog=1) and off.",
            {"binlog-on": "--log-bin --sync-binlog=1", "binlog-off": "--skip-log-bin"},
            "binlog",
        )
    if (READ_WRITE / "environment.txt").exists():
        _read_write_suites()
    if (VERSIONS / "environment.txt").exists():
        _versions_suite()
    log(f"benchmarks: {Suite.objects.count()} suites, {Measurement.objects.count()} measurements")
