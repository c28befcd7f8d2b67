"""What `make run` (scripts/devstack.py) promises: localstripe really delivers its events to
the site, signed with the development secret; Ctrl-C stops every process it started; it
refuses the production profile."""

import os
import socket
import subprocess
import sys
import urllib.parse
import urllib.request

from tests.e2e.devstack import SUPERVISOR, DevStack, alive, wait_until


def stripe_post(stack, path, fields):
    request = urllib.request.Request(
        stack.stripe_url + path,
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Authorization": "Bearer sk_test_local"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read()


def test_localstripe_posts_its_own_signed_events_to_the_site(devstack):
    stripe_post(devstack, "/v1/customers", {"email": "someone@example.org"})
    # The site verified the signature and recorded the event (no app handles customers).
    recorded = wait_until(
        lambda: devstack.query(
            "select type, outcome from payments_stripeevent where type = 'customer.created'"
        ),
        seconds=30,
        what="the customer.created delivery",
    )
    assert recorded == [("customer.created", "ignored")]
    assert 'webhook "customer.created" successfully delivered' in devstack.output("stripe")


def test_beat_runs_the_periodic_tasks_on_the_worker(devstack):
    # The outbox sweep runs every minute; beat records each run in django-celery-beat's table.
    ran = wait_until(
        lambda: devstack.query(
            "select last_run_at from django_celery_beat_periodictask "
            "where task = 'outbox.tasks.sweep_outbox' and last_run_at is not null"
        ),
        seconds=90,
        what="the outbox sweep",
    )
    assert ran
    assert "outbox.tasks.sweep_outbox" in devstack.output("worker")


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def test_ctrl_c_stops_every_process_it_started(devstack, tmp_path):
    # A second stack on a copy of the first one's database: nothing to set up.
    stack = DevStack(tmp_path / "second", demo=(), setup=False)
    devstack.copy_database_to(stack)
    stack.start()
    pids = stack.pids()
    assert set(pids) == {"stripe", "web", "worker", "beat"}
    assert all(alive(pid) for pid in pids.values())
    assert answers(stack.port) and answers(stack.stripe_port)

    assert stack.stop() == 0  # SIGINT, as Ctrl-C sends it

    assert [name for name, pid in pids.items() if alive(pid)] == []
    assert not answers(stack.port) and not answers(stack.stripe_port)
    assert stack.output("devstack").rstrip().endswith("stopped")


def test_it_refuses_the_production_profile(tmp_path):
    result = subprocess.run(
        [sys.executable, str(SUPERVISOR), "--folder", str(tmp_path)],
        env={**os.environ, "DJANGO_ENV": "production"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "refuses DJANGO_ENV=production" in result.stderr
    assert not (tmp_path / "mail").exists()
