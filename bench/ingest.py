#!/usr/bin/env python
"""Throughput of the feedback endpoint against a bare WSGI app, in the same run.

    flock /tmp/bench.lock .venv/bin/python bench/ingest.py [--duration 10] [--connections 32 64]
        [--repeat 3] [--commit-delay 500] [--port 18150] [--redis-db 15]

Starts gunicorn (config/gunicorn.py: 2 gthread workers x 16 threads) once per variant on
this machine, the variants back to back (with --repeat, in interleaved rounds, so a
burst of load from elsewhere hits both alike; the median is kept):

- the bare app that only reads the body and answers <h1>ok</h1> (the ceiling);
- the endpoint (feedback.views.receive_report behind Django's handler), with
  PostgreSQL's own group commit: commit_delay/commit_siblings set on the bench database,
  as the deploy sets them on the server (deploy/postgresql/portal.conf).

Each is driven by wrk (apt-get install wrk) posting the real full report from the
fixtures, with Redis for the rate limit and the task queue as in production, and
synchronous_commit on (every acknowledged report durable). After each run the database
must hold at least as many reports as were answered with 2xx (else it stops with LOST
REPORTS). Prints requests/s, p99 latency, the ratio to the bare app and the load average
before each run; a figure taken above a load average of 1 is marked as not fit for a
decision (the cores were shared with other work). Before each run it waits (up to
--settle seconds) for the load of the previous run to die down.
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "feedback" / "demo_data" / "full-10.11-debian12.http"
DB_NAME = "portal_bench_feedback"
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
PORT = 18150
# A figure taken with more load than this before its run shares the cores with other
# work: printed, but marked as not fit for a decision.
MAX_QUIET_LOAD = 1.0


def set_port(port: int):
    global PORT
    PORT = port


def psql(sql, db="postgres"):
    command = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-qtAc", sql]
    subprocess.run(command, check=True, capture_output=True)


def count_reports():
    result = subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-d",
            DB_NAME,
            "-qtAc",
            "SELECT count(*) FROM feedback_rawreport",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(result.stdout.strip())


def start_gunicorn(app, env):
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", app],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1)
            return process
        except Exception:
            time.sleep(0.2)
        if process.poll() is not None:
            raise SystemExit(f"gunicorn for {app} exited")
    return process


def stop(process):
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(30)


def run_wrk(connections, duration, body_file):
    result = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{duration}s",
            "--latency",
            "--timeout",
            "10s",
            "-s",
            str(ROOT / "bench" / "post_report.lua"),
            f"http://127.0.0.1:{PORT}/rest/v1/post",
        ],
        env={**os.environ, "REPORT_BODY_FILE": body_file},
        capture_output=True,
        text=True,
        check=True,
    )
    out = result.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    total = int(re.search(r"(\d+) requests in", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": rps,
        "p99_ms": p99_ms,
        "ok": total - int(non2xx.group(1) if non2xx else 0),
        "errors": errors.group(1) if errors else "none",
    }


def settled_load(max_wait: float) -> float:
    """The load average once it has fallen to MAX_QUIET_LOAD (the previous run's own load
    decays over a minute or so), or after ``max_wait`` seconds, whichever comes first."""
    deadline = time.monotonic() + max_wait
    while (load := os.getloadavg()[0]) > MAX_QUIET_LOAD and time.monotonic() < deadline:
        time.sleep(5)
    return load


def set_group_commit(commit_delay: int, commit_siblings: int):
    """PostgreSQL's group commit for new connections to the bench database (superuser)."""
    psql(f"ALTER DATABASE {DB_NAME} SET commit_delay = {commit_delay}")
    psql(f"ALTER DATABASE {DB_NAME} SET commit_siblings = {commit_siblings}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, nargs="+", default=[32, 64])
    parser.add_argument("--port", type=int, default=PORT, help="for gunicorn (default %(default)s)")
    parser.add_argument("--redis-db", type=int, default=15, help="scratch Redis database")
    parser.add_argument("--commit-delay", type=int, default=500, help="microseconds")
    parser.add_argument("--commit-siblings", type=int, default=5)
    parser.add_argument(
        "--settle", type=float, default=150,
        help="seconds to wait at most for the load average to fall below 1 before each run",
    )  # fmt: skip
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds of all variants, interleaved (median kept)"
    )
    args = parser.parse_args()
    set_port(args.port)
    if shutil.which("wrk") is None:
        raise SystemExit("bench/ingest.py needs wrk: apt-get install wrk")

    raw = FIXTURE.read_bytes()
    body = raw.split(b"\r\n\r\n", 1)[1]
    with tempfile.NamedTemporaryFile(suffix=".body", delete=False) as handle:
        handle.write(body)
        body_file = handle.name

    psql(f"DROP DATABASE IF EXISTS {DB_NAME}")
    psql(f"CREATE DATABASE {DB_NAME}")
    base_env = {
        **os.environ,
        "DATABASE_URL": DB_URL,
        # As in production: Redis counts the rate limit and carries the processing tasks
        # (no worker runs, so they wait in a scratch database that is flushed after).
        "REDIS_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CONN_MAX_AGE": "60",
        "FEEDBACK_RATE_LIMIT": "10000000/m",
        "GUNICORN_BIND": f"127.0.0.1:{PORT}",
        "LOG_LEVEL": "WARNING",
        "DEBUG": "false",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=base_env, check=True
    )

    # (label, WSGI app, environment, commit_delay in µs)
    variants = [
        ("bare WSGI app", "bench.bare_app", {}, 0),
        (f"endpoint, commit_delay={args.commit_delay}", "config.wsgi", {}, args.commit_delay),
    ]
    runs: dict[tuple[int, str], list[dict]] = {}
    for connections in args.connections:
        for _ in range(args.repeat):  # interleaved: a burst of load hits every variant alike
            for label, app, extra, commit_delay in variants:
                set_group_commit(commit_delay, args.commit_siblings)
                before = count_reports()
                load = settled_load(args.settle)
                process = start_gunicorn(app, {**base_env, **extra})
                print(f"{connections:>3} connections, {label}: load average {load:.2f}", flush=True)
                try:
                    figures = run_wrk(connections, args.duration, body_file)
                finally:
                    stop(process)
                stored = count_reports() - before
                if app.startswith("config.wsgi") and stored < figures["ok"]:
                    raise SystemExit(f"LOST REPORTS: {figures['ok']} answered ok, {stored} stored")
                figures["stored"] = stored
                figures["load"] = load
                runs.setdefault((connections, label), []).append(figures)

    set_group_commit(0, 5)
    print(
        f"\nfeedback ingestion, {args.duration}s per run, {args.repeat} interleaved round(s), "
        f"gunicorn 2 gthread workers x 16 threads, commit_siblings={args.commit_siblings}"
    )
    print(
        f"{'conns':>5}  {'variant':30} {'median req/s':>12} {'every run':>16} "
        f"{'p99 ms':>8} {'ratio':>6} {'stored/ok':>12} {'load before':>12}"
    )
    unfit = False
    for connections in args.connections:
        bare = statistics.median(f["rps"] for f in runs[(connections, "bare WSGI app")])
        for label, app, _, _ in variants:
            figures = runs[(connections, label)]
            rps = statistics.median(f["rps"] for f in figures)
            p99 = statistics.median(f["p99_ms"] for f in figures)
            every = " ".join(f"{f['rps']:.0f}" for f in figures)
            loads = " ".join(f"{f['load']:.1f}" for f in figures)
            mark = ""
            if max(f["load"] for f in figures) > MAX_QUIET_LOAD:
                mark, unfit = " *", True
            stored = (
                f"{sum(f['stored'] for f in figures)}/{sum(f['ok'] for f in figures)}"
                if app.startswith("config.wsgi")
                else "-"
            )
            print(
                f"{connections:>5}  {label:30} {rps:>12.0f} {every:>16} {p99:>8.1f} "
                f"{rps / bare:>6.3f} {stored:>12} {loads:>12}{mark}"
            )
    if unfit:
        print(
            f"* taken with a load average above {MAX_QUIET_LOAD} before the run (other work on "
            "this machine): not fit for a decision; rerun on a quiet machine."
        )
    os.unlink(body_file)
    subprocess.run(
        ["redis-cli", "-n", str(args.redis_db), "flushdb"], check=True, capture_output=True
    )


if __name__ == "__main__":
    main()
