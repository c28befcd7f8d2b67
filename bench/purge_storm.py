#!/usr/bin/env python
"""The edge's hit rate while staff make 30 edits (issue 58: a storm of 30 admin edits sent
209,116 key purges to the edge; the hit rate fell to 7 %, visitors' median from 9 to 122 ms).

    .venv/bin/python bench/purge_storm.py [--visitors 8] [--edits 30] [--skip-setup]

The set-up of bench/pages.py (a database with the demo content, static files, gunicorn
with config/gunicorn.py and DJANGO_ENV=production behind nginx running deploy/nginx/ with
its edge cache and purge endpoint; tasks run in the web process, so each purge is
delivered at its commit). Every sitemap URL is asked for once (the edge keeps it), then
visitors ask for sitemap URLs at random, without pause, while a staff process saves one
object a second, as the admin saves it (the object, then the admin's log entry, in one
transaction): six news posts, six people, six governance documents, six mirrors and six
releases, one kind after the other.
Prints the share of answers nginx gave from its copy (X-Edge-Cache HIT, or STALE and
UPDATING for a copy past its s-maxage while one background request refreshes it) and the visitors'
median and p99 time, before the edits (the same number of seconds), during them and
during each kind's, and how many keys the purges made nginx drop.
"""

import argparse
import gzip
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pages  # the page bench's set-up: database, nginx, gunicorn

ROOT = pages.ROOT
# Answers nginx gave from its copy without the site building the page: a copy within its
# s-maxage (HIT), or an expired one while a background request asks the site again.
FROM_THE_COPY = {"HIT", "STALE", "UPDATING"}

EDITS = """
import sys, time
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from foundation.models import GovernanceDocument, NewsPost, Person
from releases.models import Release
from releases.repoconfig.models import Mirror

staff, _ = get_user_model().objects.get_or_create(
    username="bench-staff", defaults={"is_staff": True, "is_superuser": True}
)
kinds = [
    (NewsPost, "title"), (Person, "name"), (GovernanceDocument, "title"), (Mirror, "name"),
    (Release, "release_notes"),
]
objects = {model: list(model.objects.order_by("pk")[:10]) for model, _ in kinds}
per_kind = EDIT_COUNT // len(kinds)
for n in range(EDIT_COUNT):
    model, field = kinds[min(n // per_kind, len(kinds) - 1)]
    instance = objects[model][n % per_kind % len(objects[model])]
    with transaction.atomic():
        setattr(instance, field, (getattr(instance, field) or "") + " ")
        instance.save()
        LogEntry.objects.log_action(
            staff.pk, ContentType.objects.get_for_model(model).pk, instance.pk,
            str(instance)[:200], CHANGE, f"Changed {field}.",
        )
    print("edited", model.__name__, instance.pk, time.monotonic(), flush=True)
    time.sleep(1)
"""


class Visitors:
    """Threads asking for sitemap URLs at random, noting each answer's edge status and time."""

    def __init__(self, paths: list[str], count: int):
        self.paths, self.count = paths, count
        self.answers: list[tuple[float, str, float]] = []  # (when, edge status, seconds)
        self.lock = threading.Lock()
        self.running = True

    def visit(self):
        pick = random.Random()
        while self.running:
            path = pick.choice(self.paths)
            started = time.monotonic()
            try:
                _, headers, _ = pages.fetch(path)
                status = headers.get("X-Edge-Cache", "")
            except OSError as error:  # urllib's errors: an answer that is not a page
                status = f"error {getattr(error, 'code', type(error).__name__)}"
            took = time.monotonic() - started
            with self.lock:
                self.answers.append((started, status, took))

    def start(self):
        self.threads = [threading.Thread(target=self.visit) for _ in range(self.count)]
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join()

    def between(self, start: float, end: float) -> str:
        seen = [(status, took) for when, status, took in self.answers if start <= when < end]
        hits = sum(status in FROM_THE_COPY for status, _ in seen)
        errors = sum(status.startswith("error") for status, _ in seen)
        times = sorted(took for _, took in seen)
        p99 = times[int(len(times) * 0.99)] if times else 0
        return (
            f"{len(seen):6} answers, hit rate {hits / max(len(seen), 1):6.1%}, median "
            f"{statistics.median(times) * 1000 if times else 0:6.1f} ms, p99 {p99 * 1000:7.1f} ms, "
            f"{errors} errors"
        )


def sitemap_paths() -> list[str]:
    _, headers, body = pages.fetch("/sitemap.xml")
    if headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return [
        re.sub(r"^https?://[^/]+", "", url)
        for url in re.findall(r"<loc>([^<]+)</loc>", body.decode())
    ]


def purged_keys(work: Path) -> int:
    """PURGE requests nginx answered 200 (it held the key), from its purge log."""
    log = work / "logs" / "purge-access.log"
    return sum(" 200 " in line for line in log.read_text().splitlines()) if log.exists() else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--visitors", type=int, default=8)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--skip-setup", action="store_true")
    parser.add_argument("--redis-port", default="6379")
    parser.add_argument("--redis-db", default="5", help="flushed by the bench")
    args = parser.parse_args()
    print(f"uptime before: {pages.uptime()}", flush=True)
    env = pages.environment(args.redis_port, args.redis_db)
    if not args.skip_setup:
        print("setting up: database, demo content, static files ...", flush=True)
        pages.set_up(env)
    subprocess.run(
        ["redis-cli", "-p", args.redis_port, "-n", args.redis_db, "flushdb"],
        check=True,
        capture_output=True,
    )
    work = Path(tempfile.mkdtemp(prefix="portal-bench-storm-"))
    nginx = pages.start_nginx(work, pages.STATIC_ROOT, purge_log=True)
    gunicorn = pages.start_gunicorn(env)
    visitors = None
    try:
        paths = sitemap_paths()
        with ThreadPoolExecutor(args.visitors) as pool:  # the edge keeps each, the site notes it
            list(pool.map(pages.fetch, paths))
        print(f"{len(paths)} sitemap URLs asked for once; visitors start", flush=True)
        visitors = Visitors(paths, args.visitors)
        visitors.start()
        before = time.monotonic()
        time.sleep(args.edits)
        storm = time.monotonic()
        purged_before = purged_keys(work)
        edits = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "shell",
                "-v0",
                "-c",
                EDITS.replace("EDIT_COUNT", str(args.edits)),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        after = time.monotonic()
        time.sleep(1)  # the last purge's second pass
        visitors.stop()
        if edits.returncode:
            raise SystemExit(edits.stderr[-3000:])
        purged = purged_keys(work) - purged_before
    finally:
        if visitors is not None:
            visitors.stop()
        pages.stop(gunicorn)
        pages.stop(nginx)
    print(f"\nuptime after: {pages.uptime()}")
    print(f"{args.visitors} visitors asking for {len(paths)} sitemap URLs at random, through nginx")
    print(f"before the edits ({storm - before:.0f} s):  {visitors.between(before, storm)}")
    print(f"during {args.edits} edits ({after - storm:.0f} s): {visitors.between(storm, after)}")
    edited = [line.split() for line in edits.stdout.splitlines() if line.startswith("edited ")]
    for kind in dict.fromkeys(words[1] for words in edited):
        times = [float(words[3]) for words in edited if words[1] == kind]
        start, end = times[0] - 1, times[-1] + 1  # from just before its first save
        print(f"  {len(times)} edits of {kind:18} {visitors.between(start, end)}")
    print(f"keys the purges dropped from nginx (first and second passes): {purged}")


if __name__ == "__main__":
    main()
