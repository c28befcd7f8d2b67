#!/usr/bin/env python3
"""Submit a benchmark run to the foundation's site from any machine or CI job.

Standard library only (Python 3.8 or later), so it runs on a bare CI runner. It reads the
output of sysbench, JMH (``-rf json``), hyperfine (``--export-json``) or YCSB from a file,
from standard input (``-``) or by running the tool (``--run``), gathers the provenance the
machine can tell (OS, CPU, memory, today's date, the CI job), posts it all with your
personal API token (make one on /accounts/benchmarks/) and prints the draft's status URL.

    BENCHMARK_TOKEN=bench_… python3 bench/submit_run.py --site https://example.org \\
        --suite thread-pool --label ci-nightly --server-version 11.4.9 out.txt

    python3 bench/submit_run.py --suite thread-pool --label ci-nightly \\
        --server-version 11.4.9 --run "sysbench cpu --threads=2 run"

Exit status: 0 when the run was stored, 1 when the site refused it (its reason is
printed), 2 for a mistake on the command line.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import secrets
import shlex
import subprocess
import sys
import urllib.error
import urllib.request

IMPORTERS = ["sysbench", "jmh", "hyperfine", "ycsb", "table"]


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def operating_system() -> str:
    """'Debian GNU/Linux 12 (bookworm), kernel 6.1.0' where /etc/os-release says so."""
    pretty = ""
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            pretty = line.split("=", 1)[1].strip().strip('"')
    if pretty:
        return f"{pretty}, kernel {platform.release()}"
    return platform.platform()


def cpu() -> str:
    model = ""
    for line in _read("/proc/cpuinfo").splitlines():
        if line.lower().startswith("model name"):
            model = " ".join(line.split(":", 1)[1].split())
            break
    if not model:
        model = platform.processor() or platform.machine()
    cores = os.cpu_count()
    return f"{model}, {cores} cores" if cores else model


def memory() -> str:
    total = 0
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            total = int(line.split()[1]) * 1024
    if not total:
        try:
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            return ""
    return f"{round(total / 2**30)} GiB RAM"


def hardware() -> str:
    return ", ".join(part for part in (cpu(), memory()) if part)


def ci_job():
    """(source, source URL) of the CI job this runs in, where its environment says."""
    env = os.environ
    if env.get("GITHUB_RUN_ID") and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL", "https://github.com")
        url = f"{server}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}"
        return f"GitHub Actions run {env['GITHUB_RUN_ID']} of {env['GITHUB_REPOSITORY']}", url
    if env.get("CI_JOB_URL"):  # GitLab
        return f"GitLab CI job {env.get('CI_JOB_ID', '')}".strip(), env["CI_JOB_URL"]
    if env.get("BUILD_URL"):  # Jenkins
        return f"Jenkins build {env.get('BUILD_TAG', '')}".strip(), env["BUILD_URL"]
    return "", ""


def multipart(fields: dict, file_name: str, content: bytes):
    """The body and content type of a multipart/form-data request."""
    boundary = "----submit-run-" + secrets.token_hex(16)
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    safe_name = file_name.replace('"', "_").replace("\r", "_").replace("\n", "_")
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{safe_name}"\r\n'
        "Content-Type: text/plain\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def arguments(argv=None):
    parser = argparse.ArgumentParser(
        description="Submit a benchmark run (sysbench, JMH, hyperfine or YCSB output).",
        epilog="The token is read from --token or the BENCHMARK_TOKEN environment variable.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("output", nargs="?", help="the tool's output file, or - for stdin")
    source.add_argument("--run", metavar="COMMAND", help="run this command and submit its output")
    parser.add_argument(
        "--site",
        default=os.environ.get("BENCHMARK_SITE", ""),
        help="the site's address (or BENCHMARK_SITE)",
    )
    parser.add_argument("--token", default=os.environ.get("BENCHMARK_TOKEN", ""))
    parser.add_argument("--suite", required=True, help="the suite's slug, e.g. thread-pool")
    parser.add_argument("--label", required=True, help="the run's name in legends")
    parser.add_argument(
        "--importer", choices=IMPORTERS, default="", help="the output's format (default: detected)"
    )
    parser.add_argument("--parameters", default="", help='JSON, e.g. {"threads": 8}')
    parser.add_argument("--variant", default="", help='JSON tags, e.g. {"engine": "InnoDB"}')
    parser.add_argument("--server-version", default="", help="e.g. 11.4.9")
    parser.add_argument("--server-commit", default="")
    parser.add_argument("--server-config", default="", help="the server options that matter")
    parser.add_argument("--tool", default="", help="tool and version, if the output omits it")
    parser.add_argument("--source", default="", help="default: the CI job, or this machine")
    parser.add_argument("--source-url", default="")
    parser.add_argument("--notes", default="")
    parser.add_argument("--hardware", default="", help="default: CPU, cores and memory here")
    parser.add_argument("--os", default="", help="default: this machine's OS and kernel")
    parser.add_argument("--date", default="", help="date measured, YYYY-MM-DD (default today)")
    parser.add_argument("--dry-run", action="store_true", help="print what would be sent")
    options = parser.parse_args(argv)
    if not options.dry_run and not options.site:
        parser.error("say where to submit: --site or BENCHMARK_SITE")
    if not options.dry_run and not options.token:
        parser.error("no token: --token or BENCHMARK_TOKEN (make one on /accounts/benchmarks/)")
    return options


def tool_output(options) -> tuple[str, bytes]:
    if options.run:
        done = subprocess.run(shlex.split(options.run), capture_output=True, check=False)
        if done.returncode != 0:
            sys.stderr.write(done.stderr.decode(errors="replace"))
            raise SystemExit(f"the command failed with status {done.returncode}: {options.run}")
        return shlex.split(options.run)[0].rsplit("/", 1)[-1] + "-output.txt", done.stdout
    if options.output == "-":
        return "stdin.txt", sys.stdin.buffer.read()
    try:
        with open(options.output, "rb") as handle:
            return os.path.basename(options.output), handle.read()
    except OSError as error:
        raise SystemExit(f"cannot read {options.output}: {error.strerror}") from error


def fields(options) -> dict:
    ci_source, ci_url = ci_job()
    found = {
        "label": options.label,
        "importer": options.importer,
        "parameters": options.parameters,
        "variant": options.variant,
        "server_version": options.server_version,
        "server_commit": options.server_commit,
        "server_config": options.server_config,
        "client": options.tool,
        "hardware": options.hardware or hardware(),
        "os": options.os or operating_system(),
        "run_date": options.date or datetime.date.today().isoformat(),
        "source": options.source or ci_source or f"bench/submit_run.py on {platform.node()}",
        "source_url": options.source_url or ci_url,
        "notes": options.notes,
    }
    return {name: value for name, value in found.items() if value}


def submit(options, out=sys.stdout) -> int:
    file_name, content = tool_output(options)
    sent = fields(options)
    if options.dry_run:
        json.dump({**sent, "file": f"{file_name} ({len(content)} bytes)"}, out, indent=2)
        out.write("\n")
        return 0
    body, content_type = multipart(sent, file_name, content)
    url = f"{options.site.rstrip('/')}/api/benchmarks/{options.suite}/runs/"
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Authorization": f"Token {options.token}",
            "Content-Type": content_type,
            "Accept": "application/json",
            "User-Agent": "submit_run.py",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        try:
            reason = json.loads(text).get("error") or json.loads(text).get("detail") or text
        except (ValueError, AttributeError):
            reason = text[:500]
        sys.stderr.write(f"refused ({error.code}): {reason}\n")
        return 1
    except urllib.error.URLError as error:
        sys.stderr.write(f"cannot reach {url}: {error.reason}\n")
        return 1
    out.write(f"{answer['status']}: {answer['status_url']}\n")
    if answer.get("missing_provenance"):
        out.write("a reviewer will ask for: " + ", ".join(answer["missing_provenance"]) + "\n")
    return 0


def main(argv=None) -> int:
    return submit(arguments(argv))


if __name__ == "__main__":
    sys.exit(main())
