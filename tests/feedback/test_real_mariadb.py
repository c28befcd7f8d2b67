"""A real mariadbd with feedback=ON posts to the live test server.

libfaketime runs the server's clock 2000 times faster, so the plugin's
5-minute startup report comes in well under a second and its 24-hour full
report in about 45 seconds; shutting the server down sends the shutdown report.

The accelerated clock also shrinks the plugin's 60-second send timeout to 30 ms,
so on a busy machine it would give up on replies and resend. The server is
started with the longest timeout and retry wait the plugin allows (one day, about
43 real seconds), and the test still accepts resends: they are what real servers
do when a reply is slow, and the endpoint must store every one of them.
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from feedback.models import RawReport, Report
from feedback.services import processing

pytestmark = [pytest.mark.mariadb, pytest.mark.django_db(transaction=True)]


def free_port() -> int:
    """A port nobody listens on: several checkouts may run this test at the same time."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.5)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


@pytest.fixture
def mariadb_server(live_server):
    for tool in ["faketime", "mariadbd", "mariadb-install-db", "mariadb-admin"]:
        assert shutil.which(tool) or Path("/usr/sbin", tool).exists(), f"{tool} is not installed"
    datadir = tempfile.mkdtemp(prefix="feedback-mariadb-")
    shutil.chown(datadir, "mysql", "mysql")
    Path("/run/mysqld").mkdir(exist_ok=True)
    shutil.chown("/run/mysqld", "mysql", "mysql")
    socket_path = f"/run/mysqld/test-feedback-{os.getpid()}.sock"
    subprocess.run(
        [
            "mariadb-install-db",
            "--user=mysql",
            f"--datadir={datadir}",
            "--auth-root-authentication-method=normal",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    log = Path(datadir) / "server.log"
    command = [
        "faketime", "-f", "+0 x2000", "/usr/sbin/mariadbd", "--no-defaults", "--user=mysql",
        f"--datadir={datadir}", f"--port={free_port()}", f"--socket={socket_path}",
        f"--pid-file={datadir}/server.pid", f"--log-error={log}", "--skip-networking=0",
        "--bind-address=127.0.0.1", "--feedback=ON",
        "--feedback-send-timeout=86400", "--feedback-send-retry-wait=86400",
        # The accelerated clock would cut the default 10 s handshake to 5 ms (mariadb-admin
        # then loses the connection on a busy machine): allow the longest one.
        "--connect-timeout=31536000",
        f"--feedback-url={live_server.url}/rest/v1/post", "--feedback-user-info=e2e-test",
    ]  # fmt: skip
    # faketime forks mariadbd: each run is a process group, stopped whole at the end.
    servers = [subprocess.Popen(command, start_new_session=True)]

    def start_again():
        servers.append(subprocess.Popen(command, start_new_session=True))
        return servers[-1]

    try:
        yield {"socket": socket_path, "log": log, "process": servers[0], "start": start_again}
    finally:
        for server in servers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            server.wait(30)
        shutil.rmtree(datadir, ignore_errors=True)


def processed(kind: str) -> bool:
    """Whether a report of this kind is processed, once the sweep has run (a stored report
    wakes processing at most once per interval; the beat sweep does this in production)."""
    processing.process_all_pending()
    return Report.objects.filter(kind=kind).exists()


def test_a_real_server_sends_startup_full_and_shutdown_reports(mariadb_server):
    wait_until(lambda: processed("startup"), 60, "the startup report")
    wait_until(lambda: processed("full"), 150, "the full report")

    def shut_down(server):
        subprocess.run(
            ["mariadb-admin", f"--socket={mariadb_server['socket']}", "-uroot", "shutdown"],
            check=True,
            timeout=60,
        )
        server.wait(60)

    shut_down(mariadb_server["process"])
    try:
        wait_until(lambda: processed("shutdown"), 30, "the shutdown report")
    except pytest.fail.Exception:
        # The plugin sends it while the server goes down, on the accelerated clock: on a
        # loaded machine it has once arrived cut short (answered 400, nothing stored).
        # A real server sends one at every shutdown; the next one must arrive.
        server = mariadb_server["start"]()
        ping = ["mariadb-admin", f"--socket={mariadb_server['socket']}", "-uroot", "ping"]
        wait_until(
            lambda: subprocess.run(ping, capture_output=True, timeout=30).returncode == 0,
            60,
            "the server to start again",
        )
        shut_down(server)
        wait_until(lambda: processed("shutdown"), 30, "the shutdown report after the restart")
    processing.process_all_pending()  # resends that came in after the last wake

    full_reports = list(Report.objects.filter(kind="full").select_related("server"))
    for full in full_reports:
        assert full.user_info == "e2e-test"
        assert (full.version_major, full.version_minor) == (10, 11)
        assert full.os == "Linux"
        assert "InnoDB" in full.engines
    assert len({report.server_id for report in Report.objects.all()}) == 1
    assert full_reports[0].server.reports_count >= 3
    assert RawReport.objects.exclude(status="processed").count() == 0
    assert "server replied 'ok'" in mariadb_server["log"].read_text()
