#!/usr/bin/env python
"""Public pages and read APIs through the shipped nginx config, against a static file.

    .venv/bin/python bench/pages.py [--duration 4] [--connections 64] [--skip-setup]
                                    [--only pages|apis|all] [--redis-port 6379]

One run on this machine: a fresh PostgreSQL database with the demo content, Redis,
static files collected with the production storage (hashed, compressed), gunicorn with
config/gunicorn.py and DJANGO_ENV=production, behind nginx running deploy/nginx/ (its
edge cache, over HTTPS with a throw-away certificate; ports and paths rewritten as the
smoke stage does). Each URL is asked for once (the edge keeps it), then wrk loads it over
HTTPS as an anonymous visitor with 64 connections for a few seconds: first a static file
nginx serves from disk (the reference), then each public page, then every public read
API, feed, calendar and export, and the download-by-name redirect (never kept: counted).
Prints requests/s, p99 latency and the ratio to the static file; the target is a ratio of
at least 0.5 and a p99 under 20 ms. Then gunicorn is stopped and every URL is asked again:
each must still answer from nginx's copy. `uptime` is printed before and after: figures
from a loaded machine decide nothing.

``--origin``: the same URLs straight from gunicorn, without nginx (what the origin holds
when the edge misses), over HTTP with 32 connections by default, against a static file
whitenoise serves from the same gunicorn; the target is a ratio of at least 0.1.
"""

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DB_NAME = "portal_cache_bench"
DB_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
PORT = 18400  # gunicorn
HTTP_PORT, HTTPS_PORT, PURGE_PORT = 18481, 18441, 18482  # nginx
BASE = f"https://localhost:{HTTPS_PORT}"
# As a browser asks (every browser accepts gzip; the edge keeps the compressed copy).
HEADERS: dict[str, str] = {"Accept-Encoding": "gzip, deflate, br"}
TARGET_RATIO = 0.5
TARGET_P99_MS = 20.0
ORIGIN_TARGET_RATIO = 0.1  # issue 61: the origin holds when the edge misses
# The one URL never kept by the edge: each download is counted (docs/caching.md).
NOT_KEPT = {"download redirect (302)"}

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
import smoke  # noqa: E402  (the smoke stage's nginx config rewriting and certificate)

smoke.HTTP_PORT, smoke.HTTPS_PORT, smoke.GUNICORN_PORT = HTTP_PORT, HTTPS_PORT, PORT
smoke.EDGE_PURGE_PORT = PURGE_PORT

# The pages whose URLs depend on the data are looked up in the database after loading it.
URLS_SCRIPT = """
import json
from benchmarks.models import Suite
from foundation.models import NewsPost
from releases.models import Release
from releases.repoconfig import services
post = NewsPost.objects.published().order_by("-published_at").first()
release = Release.objects.published().select_related("series").by_version().first()
suite = Suite.objects.published().order_by("slug").first()
options = services.options()
newest = (
    Release.objects.published().filter(files__isnull=False).select_related("series")
    .by_version().first()
)
file = newest.files.order_by("id").first()
from feedback.trends import charts, data
chart_ids = [c["id"] for c in charts.build(data.dashboard())]
print(json.dumps({
    "series": newest.series.version,
    "version": newest.version,
    "file_name": file.file_name,
    "chart": "b-os" if "b-os" in chart_ids else chart_ids[0],
    "post": post.get_absolute_url(),
    "release": f"/download/{release.series.version}/{release.version}/",
    "suite": f"/benchmarks/{suite.slug}/",
    "options": options,
}))
"""


def manage(*args, env, capture=False):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=capture,
        text=True,
    )


def psql(sql):
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-qtAc", sql],
        check=True,
        capture_output=True,
    )


def repo_config_url(options):
    """A complete selection in the generator: the first distribution release that has a
    supported version and a mirror, as a visitor would pick it."""
    distro = next(d for d in options["distributions"] if d["family"] == "apt")
    release = next(r for r in distro["releases"] if r["versions"] and not r["eol"])
    version = release["versions"][0]["version"]
    mirror = options["mirrors"][0]["id"]
    query = f"distro={distro['slug']}&release={release['key']}&version={version}&mirror={mirror}"
    return f"/download/repo-config/?{query}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the download redirect points at a mirror: measure the 302 itself


_tls = ssl.create_default_context()
_tls.check_hostname, _tls.verify_mode = False, ssl.CERT_NONE  # the run's own certificate
_opener = urllib.request.build_opener(_NoRedirect, urllib.request.HTTPSHandler(context=_tls))


def fetch(path, base=BASE):
    request = urllib.request.Request(base + path, headers=HEADERS)
    try:
        with _opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        if error.code in (301, 302):
            return error.code, dict(error.headers), b""
        raise


def start_gunicorn(env):
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(150):
        try:
            fetch("/healthz", base=f"http://127.0.0.1:{PORT}")
            return process
        except Exception:
            time.sleep(0.2)
        if process.poll() is not None:
            raise SystemExit("gunicorn exited; run it by hand with the same environment")
    raise SystemExit("gunicorn did not answer /healthz")


def stop(process):
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(30)


def run_wrk(path, connections, duration):
    header_args = [arg for name, value in HEADERS.items() for arg in ("-H", f"{name}: {value}")]
    result = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{duration}s",
            "--latency",
            "--timeout",
            "10s",
            *header_args,
            BASE + path,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    out = result.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": rps,
        "p99_ms": p99_ms,
        "non2xx": int(bad.group(1)) if bad else 0,
        "errors": errors.group(1) if errors else "",
    }


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def start_nginx(work: Path, static_root: Path, purge_log: bool = False) -> subprocess.Popen:
    """deploy/nginx/ as the smoke stage runs it: this run's ports, paths and certificate
    (``purge_log``: the purge endpoint logs its requests to logs/purge-access.log)."""
    for directory in ("logs", "var", "nginx-temp"):
        (work / directory).mkdir(parents=True, exist_ok=True)
    (work / "var" / "static").symlink_to(static_root)
    (work / "var" / "media").mkdir()
    smoke.certificate(work)
    main_conf = smoke.nginx_config(work)
    if purge_log:
        portal = work / "nginx" / "portal.conf"
        portal.write_text(
            portal.read_text().replace(
                "server_name _;\n    access_log off;",
                f"server_name _;\n    access_log {work}/logs/purge-access.log;",
            )
        )
    checked = subprocess.run(["nginx", "-t", "-c", str(main_conf)], capture_output=True, text=True)
    if checked.returncode:
        raise SystemExit(f"nginx -t: {checked.stderr}")
    return subprocess.Popen(
        ["nginx", "-c", str(main_conf), "-g", "daemon off;"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


STATIC_ROOT = Path(tempfile.gettempdir()) / "portal-cache-bench-static"


def environment(redis_port: str, redis_db: str) -> dict:
    """The production profile of the bench's processes."""
    return {
        **os.environ,
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "STRIPE_SECRET_KEY": f"sk_test_{secrets.token_urlsafe(24)}",
        "STRIPE_TEST_MODE": "true",
        "STRIPE_WEBHOOK_SECRET": f"whsec_{secrets.token_urlsafe(24)}",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": BASE,
        "TRUSTED_PROXIES": "127.0.0.1,::1",
        "DATABASE_URL": DB_URL,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/{redis_db}",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "STATIC_ROOT": str(STATIC_ROOT),
        "GUNICORN_BIND": f"127.0.0.1:{PORT}",
        "GUNICORN_ACCESS_LOG": "/dev/null",
        "EDGE_PURGE_URLS": f"http://127.0.0.1:{PURGE_PORT}/purge",
        "LOG_LEVEL": "WARNING",
    }


def set_up(env: dict) -> None:
    """A fresh database with the demo content, and the static files collected."""
    psql(f"DROP DATABASE IF EXISTS {DB_NAME}")
    psql(f"CREATE DATABASE {DB_NAME}")
    manage("migrate", "-v0", env=env)
    manage("load_demo", "-v0", env=env, capture=True)
    shutil.rmtree(STATIC_ROOT, ignore_errors=True)
    manage("collectstatic", "--noinput", "-v0", env=env)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=4, help="seconds of load per URL")
    parser.add_argument("--connections", type=int, default=None, help="64; 32 with --origin")
    parser.add_argument(
        "--origin",
        action="store_true",
        help="straight from gunicorn (no nginx), against a static file whitenoise serves",
    )
    parser.add_argument(
        "--skip-setup", action="store_true", help="reuse the database and static files"
    )
    parser.add_argument(
        "--only",
        choices=["pages", "apis", "all"],
        default="all",
        help="the HTML pages, the read APIs (with feeds, calendar, sitemap, exports), or both",
    )
    parser.add_argument("--redis-port", default="6379", help="a Redis of this run's own use")
    parser.add_argument(
        "--redis-db", default="5", help="the Redis database the bench uses (it is flushed)"
    )
    args = parser.parse_args()
    if args.connections is None:
        args.connections = 32 if args.origin else 64
    if shutil.which("wrk") is None:
        raise SystemExit("bench/pages.py needs wrk: apt-get install wrk")
    print(f"uptime before: {uptime()}", flush=True)

    static_root = STATIC_ROOT
    env = environment(args.redis_port, args.redis_db)
    if not args.skip_setup:
        print("setting up: database, demo content, static files ...", flush=True)
        set_up(env)
    found = json.loads(manage("shell", "-v0", "-c", URLS_SCRIPT, env=env, capture=True).stdout)
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    pages = [
        (
            "static file (whitenoise)" if args.origin else "static file (nginx)",
            "/static/" + manifest["css/site.css"],
        ),
        ("home", "/"),
        ("news list", "/news/"),
        ("news post", found["post"]),
        ("board", "/about/board/"),
        ("governance", "/about/governance/"),
        ("supporters", "/supporters/"),
        ("download", "/download/"),
        ("release page", found["release"]),
        ("repo-config with a selection", repo_config_url(found["options"])),
        ("usage statistics", "/feedback/"),
        ("benchmarks", "/benchmarks/"),
        ("suite page", found["suite"]),
    ]
    apis = api_paths(found)
    pages = {"pages": pages, "apis": [pages[0], *apis], "all": [*pages, *apis]}[args.only]

    subprocess.run(
        ["redis-cli", "-p", args.redis_port, "-n", args.redis_db, "flushdb"],
        check=True,
        capture_output=True,
    )
    if args.origin:
        origin(pages, env, args)
        return
    work = Path(tempfile.mkdtemp(prefix="portal-bench-pages-"))
    nginx = start_nginx(work, static_root)
    gunicorn = start_gunicorn(env)
    try:
        results = measure(pages, args)
        stop(gunicorn)
        without_app = ask_without_app(pages)
    finally:
        if gunicorn.poll() is None:
            stop(gunicorn)
        stop(nginx)
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nuptime after: {uptime()} ({os.cpu_count()} cores)")
    print(
        f"through deploy/nginx (HTTPS, edge cache), wrk -t2 -c{args.connections} "
        f"-d{args.duration}s, anonymous visitor, DJANGO_ENV=production, gunicorn config/gunicorn.py"
    )
    print(
        f"{'page':30} {'bytes':>7} {'req/s':>8} {'p99 ms':>8} {'ratio':>6}  target   "
        "without the app"
    )
    reference = results[0][2]["rps"]
    missed = 0
    for index, (label, path, f) in enumerate(results):
        ratio = f["rps"] / reference
        met = ratio >= TARGET_RATIO and f["p99_ms"] < TARGET_P99_MS and not f["non2xx"]
        if label in NOT_KEPT:
            verdict = "app (counted)"
        else:
            verdict = "reference" if index == 0 else ("met" if met else "MISSED")
            missed += verdict == "MISSED"
        notes = f" non-2xx {f['non2xx']}" if f["non2xx"] else ""
        notes += f" socket errors {f['errors']}" if f["errors"] else ""
        print(
            f"{label:30} {f['bytes']:>7} {f['rps']:>8.0f} {f['p99_ms']:>8.1f} {ratio:>6.2f}  "
            f"{verdict:8} {without_app[path]}{notes}"
        )
    down = [p for label, p, _ in results if label not in NOT_KEPT and without_app[p] != "200"]
    print(f"\ntargets missed: {missed}; URLs not answered 200 with gunicorn stopped: {down}")
    print("\npaths:")
    for label, path, _ in results:
        print(f"  {label:30} {path}")


def origin(pages, env, args) -> None:
    """Every URL straight from gunicorn: the origin when the edge misses (issue 61)."""
    global BASE
    BASE = f"http://127.0.0.1:{PORT}"
    # what nginx adds in front of gunicorn: the visitor came over HTTPS (no redirect)
    HEADERS["X-Forwarded-Proto"] = "https"
    gunicorn = start_gunicorn(env)
    try:
        results = measure(pages, args)
    finally:
        stop(gunicorn)
    print(f"\nuptime after: {uptime()} ({os.cpu_count()} cores)")
    print(
        f"straight from gunicorn (config/gunicorn.py, DJANGO_ENV=production, no nginx), "
        f"wrk -t2 -c{args.connections} -d{args.duration}s, anonymous visitor"
    )
    print(f"{'page':30} {'bytes':>7} {'req/s':>8} {'p99 ms':>8} {'ratio':>6}  target")
    reference = results[0][2]["rps"]
    missed = 0
    for index, (label, _path, figures) in enumerate(results):
        ratio = figures["rps"] / reference
        if index == 0:
            verdict = "reference"
        elif label in NOT_KEPT:
            verdict = "redirect"
        else:
            met = ratio >= ORIGIN_TARGET_RATIO and not figures["non2xx"]
            verdict = "met" if met else "MISSED"
            missed += not met
        print(
            f"{label:30} {figures['bytes']:>7} {figures['rps']:>8.0f} "
            f"{figures['p99_ms']:>8.1f} {ratio:>6.2f}  {verdict}"
        )
    print(f"\ntargets missed (ratio >= {ORIGIN_TARGET_RATIO}): {missed}")


def ask_without_app(pages) -> dict[str, str]:
    """Every URL again with gunicorn stopped: what nginx answers from its copy."""
    answers = {}
    for _, path in pages:
        try:
            status, headers, _ = fetch(path)
            answers[path] = f"{status}" + (
                f" {headers.get('X-Edge-Cache')}" if status not in (200,) else ""
            )
        except urllib.error.HTTPError as error:
            answers[path] = str(error.code)
    return answers


def api_paths(found):
    """Every public read API of issue 30, with real arguments from the demo content."""
    series, version, file_name = found["series"], found["version"], found["file_name"]
    repo_config = repo_config_url(found["options"]).replace(
        "/download/repo-config/", "/api/repo-config"
    )
    suite = found["suite"].strip("/").split("/")[-1]
    return [
        ("rest-api majors", "/rest-api/mariadb/"),
        ("rest-api series", f"/rest-api/mariadb/{series}/"),
        ("rest-api series latest", f"/rest-api/mariadb/{series}/latest/"),
        ("rest-api release", f"/rest-api/mariadb/{version}/"),
        ("rest-api checksum", f"/rest-api/mariadb/{version}/{file_name}/checksum/"),
        ("download redirect (302)", f"/rest-api/mariadb/{version}/{file_name}"),
        ("rest-api mirrors", "/rest-api/mirrors/"),
        ("api releases", "/api/releases/"),
        ("api series", f"/api/releases/{series}/"),
        ("api series latest", f"/api/releases/{series}/latest"),
        ("api release", f"/api/releases/{series}/{version}/"),
        ("api release ?os=linux", f"/api/releases/{series}/{version}/?os=linux"),
        ("api repo-config", repo_config),
        ("api repo-config options", "/api/repo-config/options"),
        ("api feedback summary", "/api/feedback/summary"),
        ("api feedback chart json", f"/api/feedback/charts/{found['chart']}.json"),
        ("api feedback trend", "/api/feedback/trends/version"),
        ("api benchmarks json", f"/api/benchmarks/{suite}.json"),
        ("api benchmarks csv", f"/api/benchmarks/{suite}.csv"),
        ("news feed", "/news/feed/"),
        ("release feed", "/download/feed/"),
        ("series feed", f"/download/{series}/feed/"),
        ("benchmark regressions feed", "/benchmarks/regressions.atom"),
        ("end-of-life calendar", "/download/end-of-life.ics"),
        ("sitemap.xml", "/sitemap.xml"),
        ("funding.csv", "/funding.csv"),
    ]


def measure(pages, args):
    results = []
    for label, path in pages:
        status, headers, body = fetch(path, base=BASE)  # the edge keeps it; the page answers
        if status not in (200, 302):
            raise SystemExit(f"{path} answered {status}")
        if "Set-Cookie" in headers:
            print(f"warning: {path} sets a cookie for an anonymous visitor", flush=True)
        kept = fetch(path, base=BASE)[1].get("X-Edge-Cache", "")
        figures = {**run_wrk(path, args.connections, args.duration), "bytes": len(body)}
        results.append((label, path, figures))
        print(
            f"  {label:30} {figures['rps']:>8.0f} req/s  p99 {figures['p99_ms']:.1f} ms  "
            f"(edge: {kept or 'static'})",
            flush=True,
        )
    return results


if __name__ == "__main__":
    main()
