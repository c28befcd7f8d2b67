"""`make run`: the whole system on one machine, with no external service.

Starts, in this order, and prefixes each one's output with its name:

- setup:      ``migrate``, ``load_demo`` (SQLite by default, or DATABASE_URL) and
              ``forget_fake_stripe_ids`` (the plans and customers of the last run's fake);
- stripe:     localstripe, a stateful Stripe fake, started empty (``--from-scratch``) on a
              port of its own; the site is pointed at it (STRIPE_API_BASE, and the pay
              pages at its Stripe.js, STRIPE_JS_URL) and it is told
              to deliver its events, signed with STRIPE_WEBHOOK_SECRET, to the site's
              ``/stripe/webhook/`` (localstripe's ``POST /_config/webhooks/<id>``);
- web:        Django's development server;
- worker:     a Celery worker (solo pool, fine with SQLite);
- beat:       Celery beat with django-celery-beat's DatabaseScheduler (Admin → Periodic
              tasks), so the outbox sweep, renewals, mirror checks and roll-ups run;

with a broker that needs no server (kombu's filesystem transport, in ``<folder>/broker``)
and mail written as files to ``<folder>/mail``. Ctrl-C (SIGINT) or SIGTERM stops every
process it started; so does any of them exiting on its own.

Development only: it refuses to start under DJANGO_ENV=production. Standard library
only, so it runs before Django is set up. The browser tests start it the same way on free
ports (tests/e2e/devstack.py).
"""

import argparse
import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from payments.secrets import STRIPE_SECRETS  # noqa: E402  (no Django import in there)

PYTHON = sys.executable
WEBHOOK_ID = "devstack"
READY = "ready:"  # the line the harness waits for: "devstack | ready: <site URL>"
STOP_SECONDS = 10


def _die_with_parent():
    """Linux: a child gets SIGTERM if the supervisor itself is killed (SIGKILL, a crash)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Supervisor:
    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.lock = threading.Lock()
        self.children: list[tuple[str, subprocess.Popen]] = []
        self.stopping = threading.Event()
        self.failed = ""

    def say(self, name: str, line: str):
        with self.lock:
            self.out.write(f"{name:<8}| {line.rstrip()}\n")
            self.out.flush()

    def _pump(self, name, stream):
        for raw in iter(stream.readline, b""):
            self.say(name, raw.decode("utf-8", "replace"))
        stream.close()

    def start(self, name: str, command: list[str], env: dict) -> subprocess.Popen:
        # Each child leads its own process group, so a terminal's Ctrl-C reaches only this
        # supervisor, which stops the groups in order (runserver's reloader included).
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self.children.append((name, process))
        threading.Thread(target=self._pump, args=(name, process.stdout), daemon=True).start()
        self.say("devstack", f"started {name} (pid {process.pid}): {' '.join(command[1:4])} …")
        return process

    def run_once(self, name: str, command: list[str], env: dict):
        process = self.start(name, command, env)
        while process.poll() is None:
            if self.stopping.wait(0.2):
                return False
        self.children.remove((name, process))
        if process.returncode != 0:
            self.failed = f"{name} failed (exit {process.returncode})"
            return False
        return True

    def watch(self):
        """Until a signal arrives or a child exits on its own."""
        while not self.stopping.wait(0.3):
            for name, process in self.children:
                if process.poll() is not None:
                    self.failed = f"{name} exited (code {process.returncode})"
                    self.stopping.set()
                    break

    def stop_all(self):
        for name, process in reversed(self.children):
            if process.poll() is None:
                self.say("devstack", f"stopping {name}")
                _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for name, process in self.children:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say("devstack", f"{name} did not stop in {STOP_SECONDS}s: killed")
                _signal_group(process, signal.SIGKILL)
                process.wait()
            # Whatever the leader left behind in its group goes too (runserver's reloader).
            _signal_group(process, signal.SIGKILL)

    def report(self) -> int:
        if self.failed:
            self.say("devstack", f"stopped: {self.failed}")
            return 1
        self.say("devstack", "stopped")
        return 0

    def stop_and_report(self) -> int:
        self.stop_all()
        return self.report()


def _signal_group(process, sig):
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def wait_for_port(port: int, process: subprocess.Popen, seconds=60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def register_webhook(stripe_url: str, site_url: str, secret: str):
    """Ask localstripe to post every event it makes to the site, signed like Stripe."""
    body = urllib.parse.urlencode({"url": f"{site_url}/stripe/webhook/", "secret": secret})
    request = urllib.request.Request(
        f"{stripe_url}/_config/webhooks/{WEBHOOK_ID}", data=body.encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        if answer.status != 200:
            raise RuntimeError(f"localstripe refused the webhook: {answer.status}")


def wait_for_site(site_url: str, process: subprocess.Popen, seconds=90) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"{site_url}/healthz", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # it answers
        except OSError:
            time.sleep(0.2)
    return False


def child_environment(args) -> dict:
    folder = Path(args.folder).resolve()
    site_url = f"http://127.0.0.1:{args.port}"
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "SITE_URL": site_url,
        "STRIPE_API_BASE": f"http://127.0.0.1:{args.stripe_port}",
        # The pay pages load the fake's Stripe.js, which sends the card to the fake.
        "STRIPE_JS_URL": f"http://127.0.0.1:{args.stripe_port}/js.stripe.com/v3/",
        **{
            secret.name: os.environ.get(secret.name, secret.development_default)
            for secret in STRIPE_SECRETS
        },
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_BROKER_FOLDER": str(folder / "broker"),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "EMAIL_URL": f"filemail:///{folder / 'mail'}",  # environ drops one slash
    }
    return env


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000, help="the site's port")
    parser.add_argument("--stripe-port", type=int, default=8420, help="localstripe's port")
    parser.add_argument(
        "--folder", default=str(ROOT / "var"), help="where the broker and the mails live"
    )
    parser.add_argument(
        "--demo",
        nargs="*",
        default=None,
        help="demo modules to load (default: all; with no name: none), e.g. sponsors.demo",
    )
    parser.add_argument(
        "--no-reload", action="store_true", help="no code reloading in the web process"
    )
    parser.add_argument(
        "--no-setup",
        action="store_true",
        help="the database is ready and the fake's ids forgotten: start the processes only",
    )
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    if os.environ.get("DJANGO_ENV") == "production":
        print("devstack: development only; it refuses DJANGO_ENV=production.", file=sys.stderr)
        return 2
    env = child_environment(args)
    site_url, stripe_url = env["SITE_URL"], env["STRIPE_API_BASE"]
    folder = Path(args.folder).resolve()
    shutil.rmtree(folder / "broker", ignore_errors=True)  # nothing queued outlives a run
    for sub in ("broker", "broker/control", "mail"):
        (folder / sub).mkdir(parents=True, exist_ok=True)

    supervisor = Supervisor()

    def on_signal(signum, frame):
        supervisor.say("devstack", f"{signal.Signals(signum).name}: stopping everything")
        supervisor.stopping.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    manage = [PYTHON, str(ROOT / "manage.py")]
    only = ["--only", *args.demo] if args.demo else []
    setup = [
        [*manage, "migrate", "--noinput"],
        *([[*manage, "load_demo", *only]] if args.demo is None or args.demo else []),
        # The fake starts empty: the plans and customers an earlier one made are gone.
        [*manage, "forget_fake_stripe_ids"],
    ]
    try:
        for command in [] if args.no_setup else setup:
            if not supervisor.run_once("setup", command, env):
                return supervisor.stop_and_report()
        stripe = supervisor.start(
            "stripe",
            [
                PYTHON,
                str(ROOT / "scripts" / "localstripe_invoicing.py"),
                "--port",
                str(args.stripe_port),
                "--from-scratch",
            ],
            env,
        )
        if not wait_for_port(args.stripe_port, stripe):
            supervisor.failed = f"localstripe did not answer on port {args.stripe_port}"
            return supervisor.stop_and_report()
        register_webhook(stripe_url, site_url, env["STRIPE_WEBHOOK_SECRET"])
        supervisor.say("devstack", f"localstripe delivers its events to {site_url}/stripe/webhook/")
        reload = ["--noreload"] if args.no_reload else []
        web = supervisor.start(
            "web", [*manage, "runserver", f"127.0.0.1:{args.port}", *reload], env
        )
        celery = [PYTHON, "-m", "celery", "-A", "config"]
        supervisor.start(
            "worker",
            [
                *celery,
                "worker",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
            ],
            env,
        )
        supervisor.start("beat", [*celery, "beat", "--loglevel=INFO"], env)
        if not wait_for_site(site_url, web):
            supervisor.failed = "the site did not answer"
            return supervisor.stop_and_report()
        supervisor.say("devstack", f"{READY} {site_url}  (mail: {folder / 'mail'}; Ctrl-C stops)")
        supervisor.watch()
    finally:
        supervisor.stop_all()
    return supervisor.report()


if __name__ == "__main__":
    sys.exit(main())
