"""The whole system as `make run` starts it (scripts/devstack.py), for browser journeys.

One stack per test session (the ``devstack`` fixture in tests/conftest.py): the same
supervisor on free ports, a temporary SQLite database, broker and mail folders, and no
Redis. Tests talk to it as a person would (HTTP, a browser) and read what it wrote: the
mails in its mail folder, and its database, read-only, for what a page does not show
(e.g. when a periodic task last ran). Its release archive (RELEASE_ARCHIVE_LOCATION) is a
port of its own, where nothing answers until a journey serves an archive there
(``archive_url``).
"""

import contextlib
import email
import fcntl
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
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
    def __init__(
        self, folder: Path, demo: tuple[str, ...] = ("sponsors.demo",), setup: bool = True
    ):
        self.folder = folder
        self.database = folder / "db.sqlite3"
        self.port, self.stripe_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.stripe_url = f"http://127.0.0.1:{self.stripe_port}"
        self.archive_port = free_port()
        self.mail_folder = folder / "mail"
        self.log_path = folder / "devstack.log"
        self.demo = demo
        self.setup = setup
        self.process: subprocess.Popen | None = None
        self.pid = 0

    def environment(self) -> dict:
        # DJANGO_SETTINGS_MODULE: the test run's (tests/settings.py); `make run` has none,
        # so manage.py and Celery read config.settings.
        test_only = ("REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")
        env = {k: v for k, v in os.environ.items() if k not in test_only}
        env["DATABASE_URL"] = f"sqlite:///{self.database}"
        env["MEDIA_ROOT"] = str(self.folder / "media")
        env["PRIVATE_MEDIA_ROOT"] = str(self.folder / "private-media")
        env["RELEASE_ARCHIVE_LOCATION"] = self.archive_url
        env["RELEASE_ARCHIVE_TIMEOUT"] = "5"
        return env

    @property
    def archive_url(self) -> str:
        return f"http://127.0.0.1:{self.archive_port}/"

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
            *([] if self.setup else ["--no-setup"]),
        ]

    @property
    def lines(self) -> list[str]:
        if not self.log_path.exists():
            return []
        return self.log_path.read_text(errors="replace").splitlines(keepends=True)

    def start(self):
        return self.launch().wait_until_ready()

    def launch(self):
        """Start the supervisor and return at once (``wait_until_ready`` waits for it)."""
        # The supervisor writes to a file, not a pipe: the stack may outlive the pytest
        # worker that started it (``shared``), and nobody has to keep reading its output.
        self.folder.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command(),
                cwd=ROOT,
                env=self.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.pid = self.process.pid
        return self

    def running(self) -> bool:
        return self.process.poll() is None if self.process else alive(self.pid)

    def wait_until_ready(self):
        deadline = time.monotonic() + START_SECONDS
        while not any(line.startswith(READY) for line in self.lines):
            if not self.running() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the stack did not start:\n" + "".join(self.lines[-60:]))
            time.sleep(0.5)
        return self

    def stop(self, sig=signal.SIGINT, seconds=30) -> int | None:
        """Stop it as Ctrl-C does (SIGINT to the supervisor); its exit code when this
        process started it."""
        if self.process is None:  # started by another pytest worker: not our child
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)
            wait_until(lambda: not alive(self.pid), seconds, "the stack's end")
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode

    def describe(self) -> dict:
        return {
            "folder": str(self.folder),
            "port": self.port,
            "stripe_port": self.stripe_port,
            "archive_port": self.archive_port,
            "pid": self.pid,
        }

    @classmethod
    def attach(cls, description: dict) -> "DevStack":
        stack = cls(Path(description["folder"]))
        stack.port, stack.stripe_port = description["port"], description["stripe_port"]
        stack.archive_port = description["archive_port"]
        stack.url = f"http://127.0.0.1:{stack.port}"
        stack.stripe_url = f"http://127.0.0.1:{stack.stripe_port}"
        stack.pid = description["pid"]
        return stack

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


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has stopped too
        return stat.read().split(") ", 1)[1][0] != "Z"


@contextlib.contextmanager
def _locked(path: Path):
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _shared_files(basetemp: Path) -> tuple[Path, Path, Path]:
    """The folder the pytest-xdist workers share (the controller's basetemp), its lock and
    the state file that describes the shared stack."""
    root = basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp
    return root, root / "devstack.lock", root / "devstack.json"


def _running_description(state: Path) -> dict | None:
    description = json.loads(state.read_text()) if state.exists() else None
    return description if description and alive(description["pid"]) else None


def _launch(root: Path, state: Path) -> tuple[DevStack, dict]:
    stack = DevStack(Path(tempfile.mkdtemp(prefix="devstack-", dir=root))).launch()
    description = {**stack.describe(), "users": 0}
    state.write_text(json.dumps(description))
    return stack, description


def prestart(basetemp: Path) -> None:
    """Start the shared stack now, without waiting for it: it migrates and loads its demo
    while the workers run other tests, instead of while a worker waits for it. ``shared``
    then finds it running; ``stop_left_over`` stops it if no test used it."""
    root, lock, state = _shared_files(basetemp)
    with _locked(lock):
        if not _running_description(state):
            _launch(root, state)


def stop_left_over(basetemp: Path) -> None:
    """At the end of the run (the pytest-xdist controller, or the only process): stop a
    started stack that no test stopped."""
    _root, lock, state = _shared_files(basetemp)
    if not state.exists():
        return
    with _locked(lock):
        description = _running_description(state)
        if description:
            DevStack.attach(description).stop()
        state.unlink(missing_ok=True)


@contextlib.contextmanager
def shared(basetemp: Path) -> Iterator[DevStack]:
    """One stack for all the pytest-xdist workers of a run: the first that needs it (or
    ``prestart``) starts it, the others use it, the last one done with it stops it."""
    root, lock, state = _shared_files(basetemp)
    with _locked(lock):
        description = _running_description(state)
        if description:
            stack = DevStack.attach(description)
        else:
            stack, description = _launch(root, state)
        description["users"] += 1
        state.write_text(json.dumps(description))
    try:
        yield stack.wait_until_ready()
    finally:
        with _locked(lock):
            description = json.loads(state.read_text())
            description["users"] -= 1
            if description["users"] == 0:
                stack.stop()
                state.unlink()
            else:
                state.write_text(json.dumps(description))
