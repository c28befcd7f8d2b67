"""Slow-body clients straight at gunicorn, without nginx in front: how many gunicorn
threads a trickling client holds. The counterpart of the smoke stage's measurement
through nginx (deploy/smoke.py); figures in docs/PERFORMANCE.md.

    .venv/bin/python bench/slow_clients.py [--clients 40] [--port 18001]

Starts gunicorn with config/gunicorn.py (2 processes x 16 threads) on the given port
against DATABASE_URL (default: the local PostgreSQL's ``postgres`` database; /healthz
only runs ``SELECT 1``), opens the slow clients, probes /healthz, prints the figures,
and stops everything it started.
"""

import argparse
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def probe(port, timeout):
    begin = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("GET", "/healthz")
        status = conn.getresponse().status
    except (OSError, http.client.HTTPException):
        status = None
    return status, time.monotonic() - begin


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--port", type=int, default=18001)
    parser.add_argument("--probes", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{args.port}",
        "GUNICORN_ACCESS_LOG": "/dev/null",
    }
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    stop, sockets = threading.Event(), []
    try:
        for _ in range(60):
            if probe(args.port, 1)[0] == 200:
                break
            time.sleep(0.5)
        baseline = [probe(args.port, args.timeout) for _ in range(args.probes)]

        def slow_client():
            sock = socket.create_connection(("127.0.0.1", args.port), timeout=60)
            sockets.append(sock)
            sock.sendall(
                b"POST /rest/v1/post HTTP/1.1\r\nHost: localhost\r\n"
                b"Content-Type: multipart/form-data; boundary=x\r\n"
                b"Content-Length: 100000\r\n\r\n"
            )
            while not stop.wait(2):
                try:
                    sock.sendall(b"x")
                except OSError:
                    return

        for _ in range(args.clients):
            threading.Thread(target=slow_client, daemon=True).start()
        time.sleep(3)
        loaded = [probe(args.port, args.timeout) for _ in range(args.probes)]
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)

    def describe(results):
        answered = [seconds for status, seconds in results if status == 200]
        worst = f"{max(answered) * 1000:.0f} ms" if answered else "-"
        return (
            f"{len(answered)}/{len(results)} answered within {args.timeout:.0f} s (worst {worst})"
        )

    print(f"gunicorn alone, no slow clients:        /healthz {describe(baseline)}")
    print(f"gunicorn alone, {args.clients} slow-body clients: /healthz {describe(loaded)}")


if __name__ == "__main__":
    main()
