"""The production smoke stage: the reference deployment, run for real, checked over HTTP.

nginx (deploy/nginx/portal*.conf with local ports, paths and a throw-away certificate)
-> gunicorn (config/gunicorn.py) -> Django in the production profile, with a Celery
worker and one beat, PostgreSQL (its own database, reached through a TCP relay this
script can cut) and a Redis of its own (which this script stops). Demo content loaded.

Checks, in order: every public page and every sitemap URL answers 200 through nginx
over TLS; feed and sitemap links use SITE_URL; nginx's edge cache keeps a page (HIT),
bypasses it for a session cookie, keeps no redirect of a made-up query string, and its
purge endpoint refuses an address not allowed; a release published through the
publishing service shows on /download/, the APIs and the feeds through nginx within a
second of its commit (the outbox purged nginx); static files and an uploaded logo are
served by nginx; a real full feedback report is answered <h1>ok</h1> and counted by
/api/feedback/summary once the worker processed it; one client's 300 KiB junk posts beside
200 valid reports from 50 others: no valid report refused, the junk answered 400/429 (413
by nginx), never 503, and nginx's error logs name no client; 300 GETs with made-up query
strings are redirected and add no Redis keys (Redis runs deploy/redis/portal.conf's
limit and policy); two database servers behind nginx
keep their own rate-limit budgets and forging X-Forwarded-For resets neither; a missing or
development secret fails check --deploy; Redis frozen (SIGSTOP): a member signs in and
pages answer within 1.5 s (p99); Redis frozen under 40 concurrent feedback posts: pages
and /healthz answer within a second and every report is stored; 40 clients
sending a body one byte
every two seconds do not stop /healthz from answering within a second; Redis stopped:
pages still render, /healthz names Redis, a report is accepted and the beat sweep
processes it once Redis is back; PostgreSQL unreachable: every public page the crawl found
shareable answers 200 from nginx's copy, a visitor with a session gets the 503 page with
Retry-After, the feedback endpoint 503, /healthz 503, and everything recovers; gunicorn
stopped: every such page still answers 200 from nginx, a session gets nginx's 503 page.

Run by .ci/run through deploy/smoke.sh (which installs nginx when missing). Ports
18000-18099 (the prod branch's); everything it starts is stopped, its database dropped
and its directory removed at the end, also on failure.
"""

import contextlib
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
# The virtualenv the deployment's processes (manage.py, gunicorn, Celery) run from: CI
# points it at one built from requirements/production.lock alone (.ci/run), so that a
# runtime import missing from the production lock fails here; this script itself, a test
# driver, runs from the development one.
APP_BIN = Path(os.environ.get("SMOKE_APP_VENV") or ROOT / ".venv") / "bin"
PYTHON = str(APP_BIN / "python")
FIXTURE = ROOT / "feedback" / "demo_data" / "full-10.11-debian12.http"  # the one in shared/

GUNICORN_PORT, HTTP_PORT, HTTPS_PORT = 18000, 18080, 18443
REDIS_PORT, DB_RELAY_PORT = 18079, 18054
EDGE_PURGE_PORT = 18081  # the purge endpoint of nginx's cache (deploy/nginx/portal.conf)
PG_HOST, PG_PORT, PG_USER = "127.0.0.1", 5432, "postgres"
DATABASE = "portal_smoke"
SITE_URL = f"https://localhost:{HTTPS_PORT}"
PLAIN_URL = f"http://localhost:{HTTP_PORT}"
PUBLIC_PAGES = [
    "/", "/about/", "/about/board/", "/about/staff/", "/about/governance/", "/about/meetings/",
    "/news/", "/news/feed/", "/contact/", "/sponsors/", "/supporters/", "/download/",
    "/download/feed/", "/download/repo-config/", "/feedback/", "/feedback/privacy/",
    "/benchmarks/", "/accessibility/", "/accounts/login/", "/accounts/signup/",
    "/accounts/password/reset/", "/robots.txt", "/.well-known/security.txt", "/sitemap.xml",
    "/api/releases/", "/api/feedback/summary", "/api/schema/", "/healthz",
]  # fmt: skip
CRAWL_LIMIT = 250
NOT_CRAWLED = re.compile(r"^/(admin/|accounts/logout|static/|media/|rest/v1/|feedback_plugin/)")
SLOW_CLIENTS = 40
FEEDBACK_LIMIT = 4  # reports a minute per client, low enough to reach in the smoke stage

started = time.monotonic()
figures: dict[str, str] = {}


def log(message: str) -> None:
    print(f"[smoke {time.monotonic() - started:6.1f}s] {message}", flush=True)


class SmokeFailure(AssertionError):
    pass


def check(condition, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


# --- a TCP relay in front of PostgreSQL, so "PostgreSQL unreachable" can be made real ---


class Relay:
    """Forwards 127.0.0.1:port to PostgreSQL; ``cut()`` closes the listener and every
    connection (the database vanishes under running processes), ``restore()`` listens again."""

    def __init__(self, port, target):
        self.port, self.target = port, target
        self.connections: list[socket.socket] = []
        self.listener = None
        self.lock = threading.Lock()

    def restore(self):
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.connections += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def cut(self):
        # shutdown() wakes the thread blocked in accept(); close() alone leaves it listening
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        with self.lock:
            for sock in self.connections:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                    sock.close()
                except OSError:
                    pass
            self.connections.clear()


# --- processes ---


class Processes:
    def __init__(self, work: Path):
        self.work = work
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name, command, env=None, cwd=ROOT):
        output = (self.work / "logs" / f"{name}.log").open("ab")
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.running[name] = process
        return process

    def stop(self, name, timeout=30):
        process = self.running.pop(name, None)
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def stop_all(self):
        for name in reversed(list(self.running)):
            self.stop(name)

    def log_text(self, name) -> str:
        return (self.work / "logs" / f"{name}.log").read_text(errors="replace")


# --- HTTP through nginx ---


class Web:
    def __init__(self, certificate: Path):
        self.tls = ssl.create_default_context(cafile=str(certificate))

    def request(self, method, url, body=None, headers=None, timeout=20, source=None):
        bits = urlsplit(url)
        source_address = (source, 0) if source else None
        if bits.scheme == "https":
            conn = http.client.HTTPSConnection(
                bits.hostname,
                bits.port,
                timeout=timeout,
                context=self.tls,
                source_address=source_address,
            )
        else:
            conn = http.client.HTTPConnection(
                bits.hostname, bits.port, timeout=timeout, source_address=source_address
            )
        path = bits.path + (f"?{bits.query}" if bits.query else "")
        try:
            conn.request(method, path or "/", body, headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, path_or_url, **kwargs):
        url = path_or_url if "://" in path_or_url else SITE_URL + path_or_url
        return self.request("GET", url, **kwargs)


def header(headers, name):
    return next((value for key, value in headers.items() if key.lower() == name.lower()), "")


def wait_for(description, probe, timeout=60, interval=0.5):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = probe()
            if last:
                return last
        except (OSError, http.client.HTTPException) as error:
            last = error
        time.sleep(interval)
    raise SmokeFailure(f"timed out waiting for {description} (last: {last!r})")


# --- set-up ---


def environment(work: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update(
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(48),
        # Every secret of core/secrets.py, each its own value; the smoke stage takes test payments.
        STRIPE_SECRET_KEY=f"sk_test_{secrets.token_urlsafe(24)}",
        STRIPE_TEST_MODE="true",
        STRIPE_WEBHOOK_SECRET=f"whsec_{secrets.token_urlsafe(24)}",
        SITE_URL=SITE_URL,
        SITE_NAME="MariaDB Foundation",
        ALLOWED_HOSTS="localhost",
        CSRF_TRUSTED_ORIGINS=SITE_URL,
        TRUSTED_PROXIES="127.0.0.1,::1",
        FEEDBACK_RATE_LIMIT=f"{FEEDBACK_LIMIT}/m",
        DATABASE_URL=f"postgres://{PG_USER}@127.0.0.1:{DB_RELAY_PORT}/{DATABASE}?connect_timeout=3",
        REDIS_URL=f"redis://127.0.0.1:{REDIS_PORT}/0",
        EMAIL_URL="smtp://127.0.0.1:18025",  # nothing listens: mail tasks fail and retry
        STATIC_ROOT=str(work / "var" / "static"),
        MEDIA_ROOT=str(work / "var" / "media"),
        PRIVATE_MEDIA_ROOT=str(work / "var" / "private"),
        GUNICORN_BIND=f"127.0.0.1:{GUNICORN_PORT}",
        EDGE_PURGE_URLS=f"http://127.0.0.1:{EDGE_PURGE_PORT}/purge",
        LOG_FORMAT="json",  # production's: check_logs reads every field of every line
        PYTHONUNBUFFERED="1",
    )
    env.pop("REDIS_URL_TEST", None)
    return env


def nginx_config(work: Path) -> Path:
    """The shipped nginx files with this run's ports and paths; each rewrite must apply,
    so a change to the shipped files that the smoke stage would not test fails here."""
    replacements = {
        "listen 80;": f"listen 127.0.0.1:{HTTP_PORT};",
        "listen [::]:80;": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{HTTPS_PORT} ssl http2;",
        "listen [::]:443 ssl http2;": "",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{GUNICORN_PORT};",
        "server_name portal.example.org;": "server_name localhost;",
        "/etc/letsencrypt/live/portal.example.org/": f"{work}/tls/",
        "/srv/portal/deploy/nginx/": f"{work}/nginx/",
        "/srv/portal/deploy/nginx;": f"{work}/nginx;",
        "/var/lib/portal/": f"{work}/var/",
        "/var/log/nginx/": f"{work}/logs/",
        "/var/cache/nginx/portal": f"{work}/nginx-cache",
        "listen 127.0.0.1:8081;": f"listen 127.0.0.1:{EDGE_PURGE_PORT};",
    }
    used = dict.fromkeys(replacements, False)
    (work / "nginx").mkdir()
    for source in sorted((ROOT / "deploy" / "nginx").glob("*.conf")):
        text = source.read_text()
        for old, new in replacements.items():
            if old in text:
                used[old] = True
                text = text.replace(old, new)
        (work / "nginx" / source.name).write_text(text)
    shutil.copy(ROOT / "deploy" / "nginx" / "unavailable.html", work / "nginx")
    unused = [old for old, applied in used.items() if not applied]
    check(not unused, f"deploy/nginx no longer contains {unused}: update the smoke stage")
    temp = work / "nginx-temp"
    main = work / "nginx" / "nginx.conf"
    main.write_text(f"""
# Debian's nginx.conf loads it from /etc/nginx/modules-enabled (deploy/ensure-nginx.sh).
load_module /usr/lib/nginx/modules/ngx_http_cache_purge_module.so;
user root;
worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/logs/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    gzip on;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {work}/nginx/portal.conf;
}}
""")
    return main


def certificate(work: Path) -> Path:
    tls = work / "tls"
    tls.mkdir()
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
            "-keyout",
            str(tls / "privkey.pem"),
            "-out",
            str(tls / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )
    return tls / "fullchain.pem"


def manage(env, *args, timeout=600):
    result = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    check(
        result.returncode == 0,
        f"manage.py {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}",
    )
    return result.stdout


# The demo sponsors have no logos (names only); one is uploaded through the same service
# the sponsor's profile form uses, so the check below sees a real upload served by nginx.
UPLOAD_LOGO = """
import io
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from sponsors.models import Organisation
from sponsors.services.organisations import store_logo
image = io.BytesIO()
Image.new("RGB", (360, 120), (0, 53, 69)).save(image, format="PNG")
organisation = Organisation.objects.filter(sponsorships__isnull=False).order_by("pk").first()
store_logo(organisation, SimpleUploadedFile("smoke-logo.png", image.getvalue(), "image/png"))
"""


MEMBER_EMAIL = "member@smoke.example.org"
MEMBER_PASSWORD = secrets.token_urlsafe(18)
CREATE_MEMBER = f"""
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
user = get_user_model().objects.create_user("smoke-member", "{MEMBER_EMAIL}", "{MEMBER_PASSWORD}")
EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
"""


def admin_connection():
    return psycopg.connect(
        host=PG_HOST, port=PG_PORT, user=PG_USER, dbname="postgres", autocommit=True
    )


def recreate_database():
    with admin_connection() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")


def drop_database():
    with admin_connection() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def query(sql, *params):
    with psycopg.connect(host=PG_HOST, port=PG_PORT, user=PG_USER, dbname=DATABASE) as conn:
        return conn.execute(sql, params).fetchall()


def redis_command(*words: str):
    """One command to this run's Redis (RESP over a socket): an integer, a string, or a
    list of strings."""
    request = f"*{len(words)}\r\n" + "".join(f"${len(w)}\r\n{w}\r\n" for w in words)
    with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=5) as sock:
        sock.sendall(request.encode())
        reader = sock.makefile("rb")

        def value():
            line = reader.readline().decode().rstrip("\r\n")
            kind, rest = line[0], line[1:]
            if kind == ":":
                return int(rest)
            if kind == "$":
                return None if rest == "-1" else reader.read(int(rest) + 2)[:-2].decode()
            if kind == "*":
                return [value() for _ in range(int(rest))]
            return rest

        return value()


def start_redis(processes, work):
    # The deploy's own settings (memory limit, eviction policy), then this run's port.
    processes.start(
        "redis",
        [
            "redis-server",
            str(ROOT / "deploy" / "redis" / "portal.conf"),
            "--port",
            str(REDIS_PORT),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(work),
        ],
    )

    def answers():
        with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")

    wait_for("redis", answers, timeout=20)


SWEEP_TASK = "feedback: process pending reports"
SMOKE_SWEEP_SECONDS = 5


def shorten_the_feedback_sweep():
    """The beat sweeps pending reports every 60 s in production; here every 5 s, so the
    outage check waits seconds for the catch-up instead of up to a minute. What it
    checks (the beat's sweep, not the web process, processes the report) is the same."""
    with psycopg.connect(host=PG_HOST, port=PG_PORT, user=PG_USER, dbname=DATABASE) as conn:
        (interval,) = conn.execute(
            "INSERT INTO django_celery_beat_intervalschedule (every, period) "
            "VALUES (%s, 'seconds') RETURNING id",
            (SMOKE_SWEEP_SECONDS,),
        ).fetchone()
        changed = conn.execute(
            "UPDATE django_celery_beat_periodictask SET interval_id = %s WHERE name = %s",
            (interval, SWEEP_TASK),
        ).rowcount
    check(changed == 1, f"no periodic task named {SWEEP_TASK!r} to shorten")


def start_site(processes, env, web):
    shorten_the_feedback_sweep()
    processes.start(
        "gunicorn",
        [str(APP_BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi"],
        env=env,
    )
    processes.start(
        "worker",
        [
            str(APP_BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--loglevel=INFO",
            "--concurrency=2",
        ],
        env=env,
    )
    processes.start(
        "beat", [str(APP_BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO"], env=env
    )
    wait_for("gunicorn behind nginx", lambda: web.get("/healthz")[0] == 200, timeout=60)


# --- the checks ---


def check_secrets_refused(env):
    """A deploy that forgot a secret, or kept its development default, does not start."""
    for name, value in [
        ("STRIPE_WEBHOOK_SECRET", None),
        ("STRIPE_WEBHOOK_SECRET", "whsec_local_development"),
        # Issue 58: a phrase looked random enough to the estimate of the time.
        ("SECRET_KEY", "the-quick-brown-fox-jumps-over-the-lazy-dog-again-and-again"),
    ]:
        broken = {k: v for k, v in env.items() if k != name}
        if value is not None:
            broken[name] = value
        result = subprocess.run(
            [PYTHON, "manage.py", "check", "--deploy"],
            cwd=ROOT,
            env=broken,
            capture_output=True,
            text=True,
            timeout=120,
        )
        check(
            result.returncode != 0 and name in result.stderr,
            f"check --deploy without a real {name}: {result.returncode} {result.stderr[-500:]}",
        )
    log("check --deploy refuses a missing or development webhook secret and a phrase, naming them")


def cookies_of(headers_list) -> dict:
    jar = {}
    for key, value in headers_list:
        if key.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            jar[name] = rest.split(";", 1)[0]
    return jar


def sign_in(web) -> tuple[int, str, dict]:
    """The sign-in form as a browser fills it: its page, its CSRF token, the post."""
    bits = urlsplit(SITE_URL)
    conn = http.client.HTTPSConnection(bits.hostname, bits.port, timeout=20, context=web.tls)
    try:
        conn.request("GET", "/accounts/login/")
        response = conn.getresponse()
        page = response.read().decode()
        jar = cookies_of(response.getheaders())
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = f"csrfmiddlewaretoken={token}&login={MEMBER_EMAIL}&password={MEMBER_PASSWORD}"
        conn.request(
            "POST",
            "/accounts/login/",
            body,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()),
                "Referer": f"{SITE_URL}/accounts/login/",
                "Origin": SITE_URL,
            },
        )
        response = conn.getresponse()
        response.read()
        return (
            response.status,
            response.getheader("Location") or "",
            {**jar, **cookies_of(response.getheaders())},
        )
    finally:
        conn.close()


FROZEN_PAGES = [
    "/",
    "/news/",
    "/about/",
    "/supporters/",
    "/download/",
    "/benchmarks/",
    "/feedback/",
    "/contact/",
    "/accounts/login/",
    "/sponsors/",
]
FROZEN_P99_LIMIT = 1.5
GUNICORN_WORKERS = 2  # config/gunicorn.py's default


def check_frozen_redis(processes, web):
    """Redis frozen (SIGSTOP: connections accepted, never answered): the member signs in
    (the rate limits fail open), pages stay fast (the cache's breaker skips Redis after the
    first timeout), the log says so once, and all is well after SIGCONT."""
    redis_pid = processes.running["redis"].pid
    said_before = processes.log_text("gunicorn").count("cache unavailable")
    os.kill(redis_pid, signal.SIGSTOP)
    try:
        begin = time.monotonic()
        status, location, jar = sign_in(web)
        sign_in_seconds = time.monotonic() - begin
        check(
            status == 302 and location == "/" and "sessionid" in jar,
            f"sign-in with Redis frozen: {status} to {location!r}",
        )
        status, _, body = web.get(
            "/accounts/email/", headers={"Cookie": f"sessionid={jar['sessionid']}"}
        )
        check(
            status == 200 and MEMBER_EMAIL in body.decode(),
            f"the signed-in member's page with Redis frozen: {status}",
        )

        latencies = []
        for _ in range(3):
            for path in FROZEN_PAGES:
                start = time.monotonic()
                status = web.get(path)[0]
                latencies.append(time.monotonic() - start)
                check(status == 200, f"{path} with Redis frozen answered {status}")
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        figures["pages with Redis frozen (median, p99 of 30 in turn)"] = (
            f"{latencies[len(latencies) // 2] * 1000:.0f} ms, {p99 * 1000:.0f} ms"
        )
        check(p99 < FROZEN_P99_LIMIT, f"pages with Redis frozen: p99 {p99:.2f} s ({latencies})")

        concurrent = []

        def fetch(path):
            start = time.monotonic()
            web.get(path, timeout=30)
            concurrent.append(time.monotonic() - start)

        threads = [
            threading.Thread(target=fetch, args=(FROZEN_PAGES[n % len(FROZEN_PAGES)],))
            for n in range(40)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        concurrent.sort()
        figures["40 concurrent pages with Redis frozen (median, worst)"] = (
            f"{concurrent[20] * 1000:.0f} ms, {concurrent[-1] * 1000:.0f} ms"
        )
        unavailable = processes.log_text("gunicorn").count("cache unavailable") - said_before
        check(
            1 <= unavailable <= GUNICORN_WORKERS,
            f"{unavailable} 'cache unavailable' lines: at most one per gunicorn worker",
        )
    finally:
        os.kill(redis_pid, signal.SIGCONT)
    log(
        f"Redis frozen: signed in ({sign_in_seconds * 1000:.0f} ms), 30 pages p99 "
        f"{p99 * 1000:.0f} ms, 40 concurrent worst {concurrent[-1] * 1000:.0f} ms; "
        f"{unavailable} log line(s)"
    )
    wait_for(
        "the cache to come back after SIGCONT",
        lambda: (
            # nginx answers /news/ from its copy; the download redirect reaches gunicorn
            # and reads its lookups from Redis (core/pagecache.py).
            web.get("/rest-api/mariadb/0.0.0/none.tar.gz")[0] == 404
            and "cache available again" in processes.log_text("gunicorn")
        ),
        timeout=60,
    )
    log("Redis thawed: the cache is used again and the log says so")


FEEDBACK_UNDER_FREEZE = 40
FROZEN_ANSWER_LIMIT = 1.0  # seconds: a page or /healthz with Redis frozen (issue 47)


def check_frozen_redis_under_feedback(processes, web):
    """Issue 47: with Redis frozen, 40 concurrent feedback posts took every web thread
    (each report's wake-up waited on the broker forever): /healthz, /news/ and
    /download/ answered after 42 s. Now a publish waits CELERY_BROKER_TIMEOUT and the
    broker is skipped after a failure: pages and /healthz answer within a second while
    the posts are in flight, every report is stored, and processed once Redis is back."""
    redis_pid = processes.running["redis"].pid
    stored_before = query("SELECT count(*) FROM feedback_rawreport")[0][0]
    posted = []

    def post(source):
        start = time.monotonic()
        try:
            status = post_report(web, source=source)[0]
        except (OSError, http.client.HTTPException) as error:
            status = type(error).__name__
        posted.append((status, time.monotonic() - start))

    os.kill(redis_pid, signal.SIGSTOP)
    try:
        # One report from each of 40 servers: each within its rate limit (FEEDBACK_LIMIT).
        threads = [
            threading.Thread(target=post, args=(f"127.0.3.{n}",))
            for n in range(1, FEEDBACK_UNDER_FREEZE + 1)
        ]
        for thread in threads:
            thread.start()
        answers = []
        while any(thread.is_alive() for thread in threads) or not answers:
            for path in ("/healthz", "/news/", "/download/"):
                start = time.monotonic()
                status = web.get(path, timeout=30)[0]
                answers.append((path, status, time.monotonic() - start))
        for thread in threads:
            thread.join()
    finally:
        os.kill(redis_pid, signal.SIGCONT)
    slow = [(path, status, round(seconds, 2)) for path, status, seconds in answers
            if status != 200 or seconds > FROZEN_ANSWER_LIMIT]  # fmt: skip
    check(not slow, f"with Redis frozen under feedback posts, slow or failed: {slow}")
    refused = [(status, round(seconds, 2)) for status, seconds in posted if status != 200]
    check(not refused, f"feedback posts with Redis frozen: {refused}")
    stored = query("SELECT count(*) FROM feedback_rawreport")[0][0] - stored_before
    check(stored == FEEDBACK_UNDER_FREEZE, f"{stored} of {FEEDBACK_UNDER_FREEZE} reports stored")
    worst_page = max(seconds for _, _, seconds in answers)
    worst_post = max(seconds for _, seconds in posted)
    figures["Redis frozen, 40 concurrent feedback posts (worst page, worst post)"] = (
        f"{worst_page * 1000:.0f} ms, {worst_post * 1000:.0f} ms"
    )
    wait_for(
        "the reports posted while Redis was frozen to be processed",
        lambda: (
            query("SELECT count(*) FROM feedback_rawreport WHERE status = 'pending'")[0][0] == 0
        ),
        timeout=120,
    )
    log(
        f"Redis frozen under {FEEDBACK_UNDER_FREEZE} feedback posts: {len(answers)} pages and "
        f"/healthz, worst {worst_page * 1000:.0f} ms; worst post {worst_post * 1000:.0f} ms; "
        "all stored, processed after SIGCONT"
    )


shared_pages: list[str] = []  # what check_pages found marked shareable, for the edge checks


def check_pages(web):
    status, _, body = web.get("/sitemap.xml")
    check(status == 200, f"/sitemap.xml answered {status}")
    locations = re.findall(r"<loc>([^<]+)</loc>", body.decode())
    check(locations, "the sitemap lists no URL")
    off_site = [url for url in locations if not url.startswith(SITE_URL + "/")]
    check(not off_site, f"sitemap URLs not under SITE_URL: {off_site[:5]}")
    for feed in ("/news/feed/", "/download/feed/"):
        status, _, body = web.get(feed)
        # The feed's own <link> elements (the entries' text may link anywhere, e.g. a
        # release's notes on the knowledge base).
        links = re.findall(r'<link\b[^>]*\bhref="([^"]+)"', body.decode())
        check(status == 200 and links, f"{feed} answered {status} with {len(links)} links")
        off_site = [link for link in links if not link.startswith(SITE_URL + "/")]
        check(not off_site, f"{feed} links not under SITE_URL: {off_site[:5]}")
    check(b"example.com" not in web.get("/news/feed/")[2], "example.com in the news feed")

    queue = [*PUBLIC_PAGES, *(urlsplit(url).path for url in locations)]
    required = set(queue)
    seen, failures, login_only = set(), [], []
    while queue and len(seen) < CRAWL_LIMIT:
        path = queue.pop(0)
        if path in seen or (NOT_CRAWLED.match(path) and path not in required):
            continue
        seen.add(path)
        status, headers, body = web.get(path)
        location = header(headers, "Location")
        if status == 302 and "/accounts/login/" in location and path not in required:
            login_only.append(path)
            continue
        if status != 200:
            failures.append(f"{path} -> {status}")
            continue
        if "public" in header(headers, "Cache-Control"):
            shared_pages.append(path)
        if "text/html" in header(headers, "Content-Type"):
            check("Content-Security-Policy" in headers, f"{path} has no Content-Security-Policy")
            for href in re.findall(r'href="([^"#]+)"', body.decode(errors="replace")):
                bits = urlsplit(urljoin(SITE_URL + path, href))
                if f"{bits.scheme}://{bits.netloc}" == SITE_URL and not bits.query:
                    queue.append(bits.path)
    check(not failures, f"pages not answering 200: {failures}")
    figures["pages answering 200 through nginx"] = str(len(seen) - len(login_only))
    figures["sitemap URLs"] = str(len(locations))
    log(
        f"{len(seen) - len(login_only)} pages answered 200 ({len(locations)} sitemap URLs; "
        f"{len(login_only)} sign-in pages skipped)"
    )

    status, headers, _ = web.get(f"{PLAIN_URL}/about/")
    check(
        status == 301 and header(headers, "Location") == f"{SITE_URL}/about/",
        f"plain HTTP page: {status} to {header(headers, 'Location')!r}",
    )
    status, _, _ = web.get(f"{PLAIN_URL}/healthz")
    check(status == 200, f"/healthz over plain HTTP answered {status}")


# --- the edge cache (nginx keeps what the site marks shareable: docs/caching.md) ---

EDGE_STATUS = "X-Edge-Cache"
PURGE_WITHIN_SECONDS = 1.0


def edge_status(web, path, **kwargs) -> tuple[int, str, bytes]:
    status, headers, body = web.get(path, **kwargs)
    return status, header(headers, EDGE_STATUS), body


def check_edge_cache(web):
    """A public page is built once, then served by nginx; a visitor with a session cookie
    always reaches the site; made-up query strings are redirected and kept by nobody;
    nginx's purge endpoint answers the app hosts only."""
    page = "/about/board/"
    browser = {"Accept-Encoding": "gzip, deflate, br"}  # the edge keeps a copy per encoding
    web.get(page, headers=browser)
    status, cached, _ = edge_status(web, page, headers=browser)
    check((status, cached) == (200, "HIT"), f"{page} the second time: {status} {cached}")
    web.get(page)
    status, plain, _ = edge_status(web, page)
    check((status, plain) == (200, "HIT"), f"{page} without gzip, the second time: {plain}")
    status, bypassed, _ = edge_status(web, page, headers={"Cookie": "sessionid=smoke"})
    check(bypassed == "BYPASS", f"{page} with a session cookie: {status} {bypassed}")
    answers = {edge_status(web, "/news/?utm_source=smoke")[:2] for _ in range(2)}
    check(answers == {(302, "MISS")}, f"a made-up query string, twice: {answers}")
    purge = f"http://127.0.0.1:{EDGE_PURGE_PORT}/purge"
    refused = web.request("PURGE", purge, headers={"X-Edge-Cache-Key": "x"}, source="127.0.0.2")
    check(refused[0] == 403, f"a purge from an address not allowed: {refused[0]}")
    key = {"X-Edge-Cache-Key": f"httpslocalhost{page}"}
    allowed = web.request("PURGE", purge, headers=key)[0]
    check(allowed == 200, f"a purge of {page} from an app host: {allowed}")
    status, cached, _ = edge_status(web, page, headers=browser)
    check(cached == "MISS", f"{page} after its purge: {status} {cached}")
    # the plain copy is dropped by the purge's mirrored subrequest, just after it answers
    wait_for(
        f"{page}'s plain copy dropped by the same purge",
        lambda: edge_status(web, page)[1] == "MISS",
        timeout=5,
        interval=0.1,
    )
    log(f"edge: {page} HIT, a session BYPASS, made-up queries not kept, purge allowed/refused")


DRAFT_RELEASE = """
import json, time
from datetime import timedelta
from django.db import transaction
from releases.models import Release, ReleaseFile
newest = Release.objects.published().filter(files__isnull=False).by_version().first()
major, minor, patch = newest.version.split(".")
version = f"{major}.{minor}.{int(patch) + 50}"
draft = Release.objects.create(series=newest.series, version=version, is_published=False,
    release_date=newest.release_date + timedelta(days=1), maturity=newest.maturity)
model = newest.files.order_by("pk").first()
ReleaseFile.objects.create(release=draft, file_name=f"mariadb-{version}.tar.gz",
    os=model.os, architecture=model.architecture, package_type=model.package_type,
    path=model.path.replace(newest.version, version), sha256="0" * 64)
print(json.dumps({"pk": draft.pk, "version": version, "series": newest.series.version}))
"""
PUBLISH_RELEASE = """
import time
from django.db import transaction
from releases.models import Release
from releases.services.publishing import publish_release
with transaction.atomic():
    publish_release(Release.objects.get(pk={pk}))
print("committed", time.time(), flush=True)
"""


def check_publishing_purges_the_edge(env, web):
    """A release published in the admin shows on /download/, the APIs and the feeds
    through nginx within a second of its commit: the outbox purged what nginx kept."""
    draft = json.loads(manage(env, "shell", "-c", DRAFT_RELEASE).strip().splitlines()[-1])
    version, series = draft["version"], draft["series"]
    paths = ["/download/", "/api/releases/", f"/rest-api/mariadb/{series}/", "/download/feed/"]
    for path in paths:
        web.get(path)
        status, cached, body = edge_status(web, path)
        check(status == 200 and cached == "HIT", f"{path} before publishing: {status} {cached}")
        check(version.encode() not in body, f"{path} shows {version} before it is published")
    shown: dict[str, float] = {}
    # Polling starts as soon as the shell says it committed, not once it has exited.
    publisher = subprocess.Popen(
        [PYTHON, "manage.py", "shell", "-c", PUBLISH_RELEASE.format(pk=draft["pk"])],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    said = []
    for line in publisher.stdout:
        if line.startswith("committed "):
            said.append(line)
            break
    if not said:
        raise SmokeFailure(f"publishing {version} failed (exit status {publisher.wait(60)})")
    committed = float(said[0].split()[1])

    def poll(path):  # one poller per URL, so that each is asked every few milliseconds
        deadline = time.time() + 10
        while time.time() < deadline:
            if version.encode() in web.get(path)[2]:
                shown[path] = time.time() - committed
                return
            time.sleep(0.02)

    pollers = [threading.Thread(target=poll, args=(path,)) for path in paths]
    for poller in pollers:
        poller.start()
    for poller in pollers:
        poller.join()
    publisher.wait(60)
    check(len(shown) == len(paths), f"{version} never showed on {set(paths) - set(shown)}")
    slowest = max(shown.values())
    figures["a published release through nginx, after its commit (slowest of 4 URLs)"] = (
        f"{slowest * 1000:.0f} ms"
    )
    purges = query(
        "SELECT extract(epoch FROM created_at), extract(epoch FROM done_at) FROM "
        "outbox_outboxitem WHERE kind = 'edge.purge' ORDER BY id DESC LIMIT 3"
    )
    timing = [
        [round(float(x) - committed, 3) if x is not None else None for x in row] for row in purges
    ]
    check(
        slowest <= PURGE_WITHIN_SECONDS,
        f"published {version} showed after {shown}; its purge recorded and done at {timing} "
        "seconds from the commit",
    )
    log(f"published {version}: shown through nginx within {slowest * 1000:.0f} ms ({shown})")


def warm_the_edge(web) -> list[str]:
    """Ask for every page the crawl found shareable (purges since may have dropped it)."""
    for path in shared_pages:
        web.get(path)
    return list(shared_pages)


def check_the_edge_answers_without_the_app(web, cause: str) -> None:
    """Every shareable public page answers 200 from nginx's copy; a visitor with a
    session cookie (never answered from the cache) gets the 503 page."""
    failures = []
    for path in shared_pages:
        status, cached, _ = edge_status(web, path)
        if status != 200:
            failures.append(f"{path} -> {status} {cached}")
    check(not failures, f"{cause}: pages the edge did not answer: {failures[:10]}")
    status, headers, body = web.get("/news/", headers={"Cookie": "sessionid=smoke"})
    check(
        status == 503 and header(headers, "Retry-After") and b"We will be back" in body,
        f"{cause}, a signed-in visitor: {status} {body[:200]!r}",
    )
    figures[f"public pages answered 200 by nginx ({cause})"] = str(len(shared_pages))
    log(f"{cause}: {len(shared_pages)} public pages 200 from the edge, a session gets 503")


def check_static_and_logo(processes, web):
    _, _, home = web.get("/")
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home.decode())
    check(stylesheet, "the home page links no hashed site.css")
    status, headers, _ = web.get(stylesheet.group(1))
    check(
        status == 200 and "immutable" in header(headers, "Cache-Control"),
        f"{stylesheet.group(1)}: {status} {header(headers, 'Cache-Control')!r}",
    )

    _, _, supporters = web.get("/supporters/")
    logos = re.findall(r'<img src="(/media/[^"]+)"', supporters.decode())
    check(logos, "the supporters page shows no uploaded logo")
    for logo in logos[:3]:
        status, headers, body = web.get(logo)
        check(
            status == 200 and header(headers, "Content-Type").startswith("image/") and body,
            f"logo {logo}: {status} {header(headers, 'Content-Type')}",
        )
    check(
        "/static/" not in processes.log_text("gunicorn")
        and "/media/" not in processes.log_text("gunicorn"),
        "static or media requests reached gunicorn",
    )
    log(f"static files and {len(logos)} uploaded logos served by nginx")


def fixture_report():
    """The real captured report, labelled as a production server's: the capture's own label
    (faketime-e2e) is marked as test traffic by the demo, and test traffic is not counted."""
    head, body = FIXTURE.read_bytes().split(b"\r\n\r\n", 1)
    content_type = re.search(rb"Content-Type: ([^\r\n]+)", head).group(1).decode()
    label = b"FEEDBACK_USER_INFO\tfaketime-e2e"
    check(label in body, "the captured report no longer carries its faketime-e2e label")
    return body.replace(label, b"FEEDBACK_USER_INFO\tsmoke-stage"), content_type


def post_report(web, source=None, forwarded=None):
    body, content_type = fixture_report()
    headers = {
        "Content-Type": content_type,
        "User-Agent": "MariaDB Server",
        "Host": f"localhost:{HTTP_PORT}",
    }
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    return web.request(
        "POST", f"http://127.0.0.1:{HTTP_PORT}/rest/v1/post", body, headers, source=source
    )


def summary(web):
    status, _, body = web.get("/api/feedback/summary")
    check(status == 200, f"/api/feedback/summary answered {status}")
    return json.loads(body)


def newest_report():
    return query("SELECT id, status FROM feedback_rawreport ORDER BY id DESC LIMIT 1")[0]


def check_feedback(web):
    before = summary(web)
    status, _, reply = post_report(web)
    check(status == 200 and b"<h1>ok</h1>" in reply, f"feedback post: {status} {reply[:200]!r}")
    report_id, _ = newest_report()
    wait_for(
        "the worker to process the report",
        lambda: (
            query("SELECT status FROM feedback_rawreport WHERE id = %s", report_id)
            == [("processed",)]
        ),
        timeout=60,
    )
    # The database's count, not the earlier answer plus one: that answer may have been a
    # copy stored up to API_CACHE_LIVE_SECONDS before, and counted fewer.
    ((counted,),) = query("SELECT count(*) FROM feedback_report WHERE NOT is_test")
    seen = []

    def summary_counts_it():
        answer = summary(web)
        seen.append(answer["reports"])
        return answer["reports"] == counted and answer

    try:
        after = wait_for("the summary to count the report", summary_counts_it, timeout=30)
    except SmokeFailure as failure:
        raise SmokeFailure(
            f"{failure}: {counted} counted in the database; the summary said "
            f"{before['reports']} before, then {sorted(set(seen))}"
        ) from None
    log(
        f"feedback report {report_id} answered <h1>ok</h1>, processed by the worker; summary "
        f"reports {before['reports']} -> {after['reports']}, servers {before['servers']} -> "
        f"{after['servers']}"
    )


JUNK_CLIENT = "127.0.0.5"
JUNK_POSTS, JUNK_BYTES, JUNK_THREADS = 120, 300 * 1024, 3
OVERSIZED_POSTS, OVERSIZED_BYTES = 6, 1536 * 1024  # over nginx's 1 MiB for the endpoint
VALID_CLIENTS, VALID_THREADS = 50, 6  # FEEDBACK_LIMIT reports each, within their budget
CLIENT_IN_ERROR_LOG = re.compile(r"client: \S+")


def nginx_error_lines(work) -> list[str]:
    """Lines of nginx's error logs (the shipped portal.error.log and this run's main log)
    that name a client address."""
    lines = []
    for name in ("portal.error.log", "nginx-error.log"):
        path = work / "logs" / name
        if path.exists():
            text = path.read_text(errors="replace")
            lines += [line for line in text.splitlines() if CLIENT_IN_ERROR_LOG.search(line)]
    return lines


def check_junk_beside_reports(work, web):
    """One client floods the feedback endpoint with large malformed posts (refused without
    being read: wrong content type, then its rate limit) and some over nginx's limit,
    while other servers send valid reports: no valid report is refused, the junk gets its
    own answers (never 503), and nginx's error log names no client."""
    junk = b"x" * JUNK_BYTES
    oversized = b"x" * OVERSIZED_BYTES
    valid_body, content_type = fixture_report()
    answers: dict[str, list] = {"junk": [], "oversized": [], "valid": []}
    lock = threading.Lock()

    def post(kind, body, content, source):
        headers = {
            "Content-Type": content,
            "User-Agent": "MariaDB Server",
            "Host": f"localhost:{HTTP_PORT}",
        }
        try:
            status, _, reply = web.request(
                "POST", f"http://127.0.0.1:{HTTP_PORT}/rest/v1/post", body, headers, source=source
            )
            answer = status if kind != "valid" or b"<h1>ok</h1>" in reply else f"{status} not ok"
        except (OSError, http.client.HTTPException) as error:
            answer = type(error).__name__
        with lock:
            answers[kind].append(answer)

    def junk_sender(count):
        for n in range(count):
            if (
                n % (JUNK_POSTS // JUNK_THREADS // 2) == 0
                and len(answers["oversized"]) < OVERSIZED_POSTS
            ):
                post("oversized", oversized, "text/plain", JUNK_CLIENT)
            post("junk", junk, "text/plain", JUNK_CLIENT)

    clients = [f"127.0.2.{n}" for n in range(1, VALID_CLIENTS + 1)]

    def valid_sender(sources):
        for _ in range(FEEDBACK_LIMIT):
            for source in sources:
                post("valid", valid_body, content_type, source)

    threads = [
        threading.Thread(target=junk_sender, args=(JUNK_POSTS // JUNK_THREADS,))
        for _ in range(JUNK_THREADS)
    ]
    threads += [
        threading.Thread(target=valid_sender, args=(clients[n::VALID_THREADS],))
        for n in range(VALID_THREADS)
    ]
    begin = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    seconds = time.monotonic() - begin
    time.sleep(1)  # nginx writes its error log as it goes; let the last lines land

    def tally(kind):
        counts: dict = {}
        for answer in answers[kind]:
            counts[answer] = counts.get(answer, 0) + 1
        return dict(sorted(counts.items(), key=str))

    refused = [a for a in answers["valid"] if a != 200]
    client_lines = nginx_error_lines(work)
    figures["valid reports refused beside the junk flood"] = (
        f"{len(refused)} of {len(answers['valid'])}"
    )
    figures["junk answers (300 KiB text/plain)"] = str(tally("junk"))
    figures["oversized answers (1.5 MiB)"] = str(tally("oversized"))
    figures["nginx error-log lines naming a client after the flood"] = str(len(client_lines))
    log(
        f"junk flood ({seconds:.0f}s): valid {tally('valid')}, junk {tally('junk')}, "
        f"oversized {tally('oversized')}; {len(client_lines)} error-log lines name a client"
    )
    problems = []
    if refused or len(answers["valid"]) != VALID_CLIENTS * FEEDBACK_LIMIT:
        problems.append(f"valid reports beside the junk: {tally('valid')}")
    if set(answers["junk"]) - {400, 429}:
        problems.append(f"the junk itself: {tally('junk')} (400 or 429 expected)")
    if set(answers["oversized"]) - {413, "ConnectionResetError", "BrokenPipeError"}:
        problems.append(f"bodies over nginx's limit: {tally('oversized')} (413 expected)")
    if client_lines:
        problems.append(f"nginx's error log names clients: {client_lines[:3]}")
    check(not problems, "; ".join(problems))


QUERY_FLOOD = 300


def check_query_flood(web):
    """Anonymous GETs with made-up query strings: each is redirected to its page without
    them and stores nothing; Redis runs with the deploy's memory limit and policy."""
    maxmemory = redis_command("CONFIG", "GET", "maxmemory")[1]
    policy = redis_command("CONFIG", "GET", "maxmemory-policy")[1]
    check(
        policy == "volatile-lfu" and int(maxmemory) > 0,
        f"the smoke stage's Redis runs maxmemory {maxmemory}, {policy}",
    )
    web.get("/news/")
    keys_before = redis_command("DBSIZE")
    answers = {}
    for n in range(QUERY_FLOOD):
        status, headers, _ = web.get(f"/news/?utm_{n}={secrets.token_hex(4)}")
        answer = (status, header(headers, "Location"))
        answers[answer] = answers.get(answer, 0) + 1
    grown = redis_command("DBSIZE") - keys_before
    figures[f"Redis keys added by {QUERY_FLOOD} GETs with made-up query strings"] = str(grown)
    log(
        f"{QUERY_FLOOD} GETs with made-up query strings: {answers}; Redis keys {grown:+d}; "
        f"Redis maxmemory {int(maxmemory) // 2**20} MiB, {policy}"
    )
    check(set(answers) == {(302, "/news/")}, f"made-up query strings answered {answers}")
    # Rate-limit counters and the like may come and go meanwhile; pages would be 300.
    check(grown < 10, f"{QUERY_FLOOD} made-up query strings added {grown} keys to Redis")


def check_client_addresses(web):
    """Two database servers behind nginx (loopback addresses of their own): each has its
    own budget, and forging X-Forwarded-For does not reset it; the counters are in Redis,
    so the limit holds exactly whichever worker answers."""
    statuses = [
        post_report(web, source="127.0.0.3", forwarded=f"203.0.113.{n}")[0]
        for n in range(FEEDBACK_LIMIT + 1)
    ]
    check(
        statuses == [200] * FEEDBACK_LIMIT + [429],
        f"one server forging X-Forwarded-For through nginx: {statuses}",
    )
    status = post_report(web, source="127.0.0.4")[0]
    check(status == 200, f"another server behind the same nginx was limited too: {status}")
    log(f"rate limit behind nginx: forged headers {statuses}, another server {status}")


def check_slow_clients(web):
    """Clients that send a body one byte every two seconds hold nginx connections only."""
    stop = threading.Event()
    sockets = []

    def slow_client():
        try:
            sock = socket.create_connection(("127.0.0.1", HTTP_PORT), timeout=30)
        except OSError:
            return
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

    threads = [threading.Thread(target=slow_client, daemon=True) for _ in range(SLOW_CLIENTS)]
    for thread in threads:
        thread.start()
    time.sleep(3)  # every slow client is connected and trickling
    latencies = []
    try:
        for _ in range(15):
            begin = time.monotonic()
            status, _, _ = web.get("/healthz", timeout=5)
            latencies.append(time.monotonic() - begin)
            check(status == 200, f"/healthz answered {status} under slow clients")
            time.sleep(0.5)
        begin = time.monotonic()
        status, _, _ = web.get("/about/", timeout=5)
        page_latency = time.monotonic() - begin
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
    worst, median = max(latencies), sorted(latencies)[len(latencies) // 2]
    figures["/healthz under 40 slow-body clients (median, worst of 15)"] = (
        f"{median * 1000:.0f} ms, {worst * 1000:.0f} ms"
    )
    figures["/about/ under 40 slow-body clients"] = f"{page_latency * 1000:.0f} ms"
    # Held gunicorn threads would make every probe time out; a shared CI machine can
    # delay one probe now and then, so the typical probe must answer within a second.
    within = sum(latency < 1.0 for latency in latencies)
    check(
        within >= len(latencies) - 2,
        f"/healthz with {SLOW_CLIENTS} slow clients: {[round(x, 2) for x in latencies]}",
    )
    log(
        f"{len(sockets)} slow-body clients: /healthz {within}/{len(latencies)} within 1 s "
        f"(median {median * 1000:.0f} ms, worst {worst * 1000:.0f} ms), a page "
        f"{page_latency * 1000:.0f} ms"
    )


def check_redis_outage(processes, work, web):
    processes.stop("redis")
    pages = [
        "/",
        "/supporters/",
        "/feedback/",
        "/api/feedback/summary",
        "/news/",
        "/contact/",
        "/download/",
        "/benchmarks/",
    ]
    statuses = {path: web.get(path)[0] for path in pages}
    check(set(statuses.values()) == {200}, f"with Redis stopped: {statuses}")
    status, _, body = web.get("/healthz")
    health = json.loads(body)
    check(
        status == 200 and health["redis"] == "down" and health["database"] == "up",
        f"/healthz with Redis stopped: {status} {health}",
    )
    status, _, reply = post_report(web)
    check(status == 200 and b"<h1>ok</h1>" in reply, f"feedback with Redis stopped: {status}")
    report_id, report_status = newest_report()
    check(report_status == "pending", f"report {report_id} is {report_status}, expected pending")
    gunicorn_log = processes.log_text("gunicorn")
    check("cache unavailable" in gunicorn_log, "no log line about the cache being unavailable")
    check(
        "rate limit not checked" in gunicorn_log or "rate limits fail open" in gunicorn_log,
        "no log line about rate limits failing open",
    )
    # The web process tries to enqueue the report's processing, gives up and says so.
    wait_for(
        "the failed enqueue to be logged",
        lambda: "not enqueued, broker unavailable" in processes.log_text("gunicorn"),
        timeout=30,
    )
    check(newest_report() == (report_id, "pending"), "the report left the pending state")
    log(
        f"Redis stopped: {len(pages)} pages 200, /healthz {health}, report {report_id} accepted, "
        "its enqueue failure logged"
    )

    start_redis(processes, work)
    begin = time.monotonic()
    wait_for(
        "the beat sweep to process the report accepted during the outage",
        lambda: (
            query("SELECT status FROM feedback_rawreport WHERE id = %s", report_id)
            == [("processed",)]
        ),
        timeout=150,
        interval=2,
    )
    sweeps = re.findall(
        r"process_pending_reports\[[^\]]+\] succeeded in [^:]+: "
        r"\{'processed': ([1-9]\d*)",
        processes.log_text("worker"),
    )
    check(sweeps, "the report was not processed by the beat sweep (process_pending_reports)")
    figures["Redis back -> sweep processed the pending report"] = (
        f"{time.monotonic() - begin:.0f} s"
    )
    log(f"Redis back: the sweep processed report {report_id} after {time.monotonic() - begin:.0f}s")


def check_database_outage(relay, web):
    warm_the_edge(web)
    relay.cut()
    check_the_edge_answers_without_the_app(web, "PostgreSQL unreachable")
    pages = ["/", "/news/", "/supporters/", "/download/", "/about/board/", "/api/feedback/summary"]
    for path in pages:  # what the site itself answers: for visitors nginx never serves a copy
        status, headers, body = web.get(path, headers={"Cookie": "sessionid=smoke"})
        check(
            status == 503
            and header(headers, "Retry-After")
            and b"We will be back in a moment" in body
            and b"Traceback" not in body,
            f"{path} with PostgreSQL unreachable: {status} {body[:200]!r}",
        )
    status, _, body = web.get("/healthz")
    check(status == 503 and json.loads(body)["database"] == "down", f"/healthz: {status} {body!r}")
    status, headers, _ = post_report(web)
    check(
        status == 503 and header(headers, "Retry-After"), f"feedback without PostgreSQL: {status}"
    )
    log(f"PostgreSQL unreachable: {len(pages)} pages 503 + Retry-After, /healthz 503, feedback 503")
    relay.restore()
    wait_for("recovery after PostgreSQL returns", lambda: web.get("/")[0] == 200, timeout=30)
    log("PostgreSQL back: pages answer 200 again")


# Issue 58, item 7: an address over ~2.9 KB got nginx's 503 page on every route (the edge's
# key filled the buffer gunicorn's headers are read into).
LONG_ADDRESS_BYTES = 8 * 1024


def padded(path: str, parameter: str) -> str:
    """``path`` with ``parameter`` (a query parameter) making the address 8 KB long."""
    joined = f"{path}{'&' if '?' in path else '?'}{parameter}="
    return joined + "x" * (LONG_ADDRESS_BYTES - len(joined))


def check_long_addresses(web):
    """An address of 8 KB gets the answer a short one gets, on a page the edge keeps, the
    health check, the sign-in page with a long ?next=, the webhook and a missing page;
    never the 503 page."""
    cases = [
        ("/about/board/?utm_source=smoke", padded("/about/board/", "utm_source")),  # 302
        ("/healthz", padded("/healthz", "probe")),
        ("/accounts/login/?next=/news/", padded("/accounts/login/?next=/news/", "x")),
        ("/accounts/login/?next=/news/", "/accounts/login/?next=" + "%2Fnews%2F" * 800),
        ("/stripe/webhook/", padded("/stripe/webhook/", "x")),
        ("/no-such-page/", "/no-such-page/" + "n" * (LONG_ADDRESS_BYTES - 15) + "/"),
    ]
    differ = []
    for short, long in cases:
        short_status, _, _ = edge_status(web, short)
        answers = {edge_status(web, long)[:2] for _ in range(2)}
        if {status for status, _ in answers} != {short_status}:
            differ.append(f"{short} {short_status}, its {len(long)}-byte form {answers}")
    check(not differ, f"long addresses answered otherwise: {differ}")
    status, _, _ = edge_status(web, "/" + "x" * 17000)
    check(status == 414, f"a 17 KB address: {status}, not 414")
    log(f"{len(cases)} addresses of 8 KB answered as their short forms; 17 KB: 414")


def check_gunicorn_down(processes, web):
    for name in ("beat", "worker"):  # no purge between warming the edge and the check
        processes.stop(name)
    warm_the_edge(web)
    processes.stop("gunicorn")
    check_the_edge_answers_without_the_app(web, "every app host stopped")
    status, headers, body = web.get("/news/", headers={"Cookie": "sessionid=smoke"})
    check(
        status == 503
        and header(headers, "Retry-After") == "120"
        and b"We will be back in a moment" in body,
        f"gunicorn stopped: {status} {body[:200]!r}",
    )
    log("gunicorn stopped: nginx answers its 503 page with Retry-After to a session")


def check_logs(processes, work, web):
    """No URL secret in any log, in any field (production's JSON lines: the request object
    Django puts in a line, an exception's text), nor in nginx's access log."""
    secret = secrets.token_urlsafe(18)
    web.get(f"/accounts/password/reset/key/1-{secret}/")
    web.get(f"/accounts/login/?next=%2Fsponsors%2Finvitations%2F{secret}%2F")
    # A donor's links (issue 47): the manage page, the thank-you page's ?gift= token.
    web.get(f"/donate/manage/{secret}/")
    web.get(f"/donate/thanks/?gift={secret}")
    web.get(f"/accounts/login/?next=%2Fdonate%2Fthanks%2F%3Fgift%3D{secret}")
    # Issue 58: a receipt of a donor's (639 such lines in one run), a document's link.
    for _ in range(3):
        web.get(f"/donate/manage/{secret}/receipt/10/")
    web.get(f"/documents/{secret}/")
    web.get(f"/documents/{secret}/pdf/")
    time.sleep(1)
    access = (work / "logs" / "portal.access.log").read_text()
    logs = {name: processes.log_text(name) for name in ("gunicorn", "worker", "beat")}
    leaked = [name for name, text in {**logs, "nginx": access}.items() if secret in text]
    check(not leaked, f"a URL secret reached the logs of {leaked}")
    django_lines = [line for line in logs["gunicorn"].splitlines() if line.startswith("{")]
    check(django_lines, "gunicorn's log has no JSON line (LOG_FORMAT=json)")
    records = [json.loads(line) for line in django_lines]  # each line one JSON object
    # Issue 58: one line per 4xx and 503 (1,934 in a 20 s outage). Counted per route now:
    # a line per process every LOG_SUMMARY_SECONDS (10) at most, after every flood above.
    refused = [
        r
        for r in records
        if r.get("logger") == "django.request"
        and (400 <= (r.get("status_code") or 0) < 500 or r.get("status_code") == 503)
    ]
    check(not refused, f"refused answers logged one by one: {refused[:3]}")
    summaries = [r for r in records if r.get("logger") == "core.requests"]
    most = 2 * ((time.monotonic() - started) / 10 + 2)  # two workers
    check(summaries and len(summaries) <= most, f"{len(summaries)} summary lines, over {most:.0f}")
    figures["lines of refused answers in gunicorn's log (counted per route)"] = (
        f"{len(summaries)} for {sum(c['count'] for r in summaries for c in r['counts'])} answers"
    )
    check("/accounts/password/reset/key/[redacted]" in access, "nginx did not redact a reset key")
    check("/donate/manage/[redacted]" in access, "nginx did not redact a donor's manage link")
    check("/documents/[redacted]" in access, "nginx did not redact a document's link")
    check("/donate/thanks/?gift=[redacted]" in access, "nginx did not redact a ?gift= token")
    check("/rest/v1/post" in access, "nginx's access log has no feedback posts")
    check("127.0.0.1" not in access, "nginx's access log holds client addresses")
    check(" from ip=" not in processes.log_text("gunicorn"), "gunicorn logged a client address")


def main():
    work = Path(tempfile.mkdtemp(prefix="portal-smoke-"))
    work.chmod(0o755)
    for directory in ("logs", "var/static", "var/media", "nginx-temp"):
        (work / directory).mkdir(parents=True, exist_ok=True)
    processes = Processes(work)
    relay = Relay(DB_RELAY_PORT, (PG_HOST, PG_PORT))
    failed = True
    try:
        env = environment(work)
        web = Web(certificate(work))
        recreate_database()
        relay.restore()
        start_redis(processes, work)
        log("manage.py check --deploy, migrate, collectstatic, load_demo (production profile)")
        manage(env, "check", "--deploy", "--fail-level", "WARNING")
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput", "-v0")
        manage(env, "load_demo")
        manage(env, "shell", "-c", UPLOAD_LOGO)
        manage(env, "shell", "-c", CREATE_MEMBER)
        check_secrets_refused(env)
        main_conf = nginx_config(work)
        result = subprocess.run(
            ["nginx", "-t", "-c", str(main_conf)], capture_output=True, text=True
        )
        check(result.returncode == 0, f"nginx -t: {result.stderr}")
        processes.start("nginx", ["nginx", "-c", str(main_conf), "-g", "daemon off;"])
        start_site(processes, env, web)
        log("nginx, gunicorn, worker and beat are up")

        check_pages(web)
        check_edge_cache(web)
        check_publishing_purges_the_edge(env, web)
        check_static_and_logo(processes, web)
        check_feedback(web)
        check_junk_beside_reports(work, web)
        check_query_flood(web)
        check_long_addresses(web)
        check_client_addresses(web)
        check_slow_clients(web)
        check_frozen_redis(processes, web)
        check_frozen_redis_under_feedback(processes, web)
        check_redis_outage(processes, work, web)
        check_database_outage(relay, web)
        check_logs(processes, work, web)
        check_gunicorn_down(processes, web)
        failed = False
    except SmokeFailure as failure:
        print(f"SMOKE FAILED: {failure}", file=sys.stderr)
    finally:
        processes.stop_all()
        relay.cut()
        try:
            drop_database()
        except psycopg.Error as error:
            print(f"could not drop {DATABASE}: {error}", file=sys.stderr)
        if failed:
            for name in ("gunicorn", "worker", "beat", "nginx-error"):
                path = work / "logs" / f"{name}.log"
                if path.exists():
                    print(
                        f"--- {name} (last lines)\n" + path.read_text(errors="replace")[-3000:],
                        file=sys.stderr,
                    )
            shutil.rmtree(work, ignore_errors=True)
    if failed:
        return 1
    shutil.rmtree(work, ignore_errors=True)
    for name, value in figures.items():
        log(f"figure: {name}: {value}")
    log(f"production smoke stage passed in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
