"""Synthetic reports shaped like the real captures, for the demo and the scale bench.

Each server gets a stable profile (version, OS, distribution, hardware, features)
drawn from a fixed seed; the report body is the real full report captured from
MariaDB 10.11 with those rows replaced, so processing parses exactly what a real
server would send.
"""

import base64
import hashlib
import random
from pathlib import Path

REAL_FULL_REPORT = Path(__file__).resolve().parents[1] / "demo_data" / "full-10.11-debian12.http"
PROFILES = [
    ("10.11.19-MariaDB-0+deb12u1", "Linux", "os-release: Debian GNU/Linux 12 (bookworm)", "x86_64"),
    ("10.11.14-MariaDB-0ubuntu0.24.04.1", "Linux", "os-release: Ubuntu 24.04.3 LTS", "x86_64"),
    ("11.4.8-MariaDB", "Linux", "os-release: Rocky Linux 9.6 (Blue Onyx)", "x86_64"),
    ("11.8.3-MariaDB-log", "Linux", "os-release: AlmaLinux 9.6 (Sage Margay)", "aarch64"),
    ("10.6.23-MariaDB", "Linux", "os-release: Ubuntu 22.04.5 LTS", "x86_64"),
    ("11.4.2-MariaDB", "Linux", "os-release: Debian GNU/Linux 12 (bookworm)", "aarch64"),
    ("10.11.2-MariaDB", "Windows", "", "x64"),
    ("11.8.2-MariaDB", "Linux", "os-release: Fedora Linux 42 (Server Edition)", "x86_64"),
]
# Simulated countries of the demo servers, a few common ones so that some pass the
# anonymity minimum and the rest show as "other".
DEMO_COUNTRIES = ["DE", "US", "FI", "DE", "US", "FR", "IN", "DE", "US", "GB", "FI", "NL"]
FEATURES = [
    "FEATURE_JSON",
    "FEATURE_WINDOW_FUNCTIONS",
    "FEATURE_SUBQUERY",
    "FEATURE_TRIGGER",
    "FEATURE_FULLTEXT",
    "FEATURE_SYSTEM_VERSIONING",
    "FEATURE_GIS",
]


def server_uid(number: int, salt: str = "synthetic") -> str:
    return base64.b64encode(hashlib.sha1(f"{salt}-{number}".encode()).digest()).decode()  # noqa: S324


def real_rows() -> list[str]:
    raw = REAL_FULL_REPORT.read_bytes()
    start = raw.index(b"application/octet-stream\r\n\r\n") + len(
        b"application/octet-stream\r\n\r\n"
    )
    end = raw.rindex(b"----------------------------ba4f3696b39f--")
    return raw[start:end].decode("utf-8").strip("\n").split("\n")


def demo_country(number: int) -> str:
    return DEMO_COUNTRIES[number % len(DEMO_COUNTRIES)]


def profile(number: int) -> tuple[str, str, str, str]:
    """(version, OS, distribution, machine) of synthetic server ``number``."""
    return PROFILES[number % len(PROFILES)]


def full_report(
    number: int, rows=None, salt="synthetic", user_info="", version: str | None = None
) -> bytes:
    """The report of server ``number``; ``version`` replaces its profile's VERSION."""
    rng = random.Random(f"{salt}-{number}")
    profile_version, os_name, distribution, arch = profile(number)
    version = version or profile_version
    replacements = {
        "FEEDBACK_SERVER_UID": server_uid(number, salt),
        "FEEDBACK_USER_INFO": user_info,
        "VERSION": version,
        "Uname_sysname": os_name,
        "Uname_distribution": distribution,
        "Uname_machine": arch,
        "Cpu_count": str(rng.choice([1, 2, 4, 4, 8, 8, 16, 32, 64])),
        "Mem_total": str(rng.choice([2, 4, 8, 16, 16, 32, 64, 128, 256]) * 1024**3),
        "THREAD_HANDLING": rng.choice(["one-thread-per-connection"] * 4 + ["pool-of-threads"]),
    }
    features = {name: rng.choice([0, 0, 1, 25, 300]) for name in FEATURES}
    lines = []
    for line in rows or real_rows():
        name, _, value = line.partition("\t")
        if name in replacements:
            value = replacements[name]
        elif name in features:
            value = str(features[name])
        lines.append(f"{name}\t{value}")
    return ("\n".join(lines) + "\n\n").encode()
