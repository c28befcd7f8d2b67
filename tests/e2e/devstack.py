"""The whole system as `make run` starts it (scripts/devstack.py), for browser journeys.

One stack per test session (the ``devstack`` fixture in tests/conftest.py): the same
supervisor on free ports, a temporary SQLite database, broker and mail folders, and no
Redis. Tests talk to it as a person would (HTTP, a browser) and read what it wrote: the
mails in its mail folder, and its database, read-only, for what a page does not show
(e.g. when a periodic task last ran). Donor and release journeys can use it too.
"""

import email
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from email.message import Message
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUPERVISOR = ROOT / "scripts" / "devstack.py"
READY = "devstack| ready:"
START_SECONDS = 240
# The file-based mail backend separates the messages of one connection with this line.
MAIL_SEPARATOR = "-" * 79


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DevStack:
    def __init__(self, folder: Path, demo: tuple[str, ...] = ("sponsors.demo",)):
        self.folder = folder
        self.database = folder / "db.sqlite3"
        self.port, self.stripe_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.stripe_url = f"http://127.0.0.1:{self.stripe_port}"
        self.mail_folder = folder / "mail"
        self.log_path = folder / "devstack.log"
        self.demo = demo
        self.process: subprocess.Popen | None = None
        self.lines: list[str] = []
        self._ready = threading.Event()

    def environment(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env["DATABASE_URL"] = f"sqlite:///{self.database}"
        env["MEDIA_ROOT"] = str(self.folder / "media")
        env["PRIVATE_MEDIA_ROOT"] = str(self.folder / "private-media")
        return env

    def command(self) -> list[str]:
        return [
            sys.executable,
            str(SUPERVISOR),
            "--port",
            str(self.port),
            "--stripe-port",
            str(self.stripe_port),
            "--folder",
            str(self.folder),
            "--no-reload",
            "--demo",
            *self.demo,
        ]

    def _pump(self):
        with self.log_path.open("w") as log:
            for raw in iter(self.process.stdout.readline, b""):
                line = raw.decode("utf-8", "replace")
                self.lines.append(line)
                log.write(line)
                log.flush()
                if line.startswith(READY):
                    self._ready.set()

    def start(self):
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        threading.Thread(target=self._pump, daemon=True).start()
        deadline = time.monotonic() + START_SECONDS
        while not self._ready.wait(0.5):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the stack did not start:\n" + "".join(self.lines[-60:]))
        return self

    def stop(self, sig=signal.SIGINT, seconds=30) -> int:
        """Stop it as Ctrl-C does (SIGINT to the supervisor); its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode

    def pids(self) -> dict[str, int]:
        """The processes the supervisor started and still runs, by name (setup steps excluded)."""
        started = re.findall(r"^devstack\| started (\w+) \(pid (\d+)\)", "".join(self.lines), re.M)
        return {name: int(pid) for name, pid in started if name != "setup"}

    def copy_database_to(self, other: "DevStack"):
        """A consistent copy of this stack's database (SQLite's backup API), for a second
        stack that then needs no long migration."""
        other.folder.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(self.database) as source, sqlite3.connect(other.database) as copy:
            source.backup(copy)

    def output(self, name: str) -> str:
        """What one process (stripe, web, worker, beat, setup, devstack) printed."""
        prefix = f"{name:<8}| "
        return "".join(line[len(prefix) :] for line in self.lines if line.startswith(prefix))

    def query(self, sql: str, params=()) -> list[tuple]:
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=20) as db:
            return db.execute(sql, params).fetchall()

    def mails(self) -> list[Message]:
        messages = []
        for path in sorted(self.mail_folder.glob("*.log")):
            for chunk in path.read_text(errors="replace").split("\n" + MAIL_SEPARATOR + "\n"):
                if chunk.strip():
                    messages.append(email.message_from_string(chunk.strip("\n")))
        return messages

    def wait_for_mail(self, to: str, subject_contains: str, seconds=60) -> Message:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for message in self.mails():
                if to in message.get("To", "") and subject_contains in message.get("Subject", ""):
                    return message
            time.sleep(0.3)
        subjects = [(m.get("To"), m.get("Subject")) for m in self.mails()]
        raise AssertionError(f"no mail to {to} about {subject_contains!r}; mails: {subjects}")


def body_of(message: Message) -> str:
    """The text of a mail (its plain part when it has several)."""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    return ""


def wait_until(condition, seconds=60, what="the condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"{what} did not happen within {seconds}s")
