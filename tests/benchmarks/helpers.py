"""Where the real test outputs were measured (tests/benchmarks/data/README.md), as the
provenance an upload carries."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
# sysbench-1.0.20-oltp-rw-p99-intervals.txt: made on this project's machine on 2026-11-23
# against its MariaDB 10.11 (benchmarks/demo_data/sysbench/read-write/environment.txt).
OLTP_RW = DATA / "sysbench-1.0.20-oltp-rw-p99-intervals.txt"
OLTP_RW_PROVENANCE = {
    "run_date": "2026-11-23",
    "server_version": "10.11.19-MariaDB-0+deb12u1",
    "hardware": "AMD EPYC, 2 cores, 23 GiB RAM",
    "os": "Debian GNU/Linux 12 (bookworm)",
    "source": "tests/benchmarks/data, made on this project's machine",
}
