"""What a report says, as the dimensions the statistics count servers by (pure logic).

The mapping tables below are the one place where raw report values become published
values (they are copied in docs/usage-trends.md). Changing any of them changes
``MAPPING_VERSION``, and the next rollup run rebuilds every rollup with the new mapping.
"""

import hashlib
import re
from typing import cast

# Rolling windows of complete days the statistics can be read for (?window=).
WINDOWS = {"30d": 30, "90d": 90, "365d": 365}

# Dimension name -> label, in the order the dashboard and the APIs list them.
DIMENSIONS = {
    "series": "MariaDB series",
    "version": "MariaDB version",
    "build": "Built by",
    "os": "Operating system",
    "distribution": "Distribution",
    "distribution_release": "Distribution release",
    "architecture": "Architecture",
    "country": "Country",
    "cpu": "CPU count",
    "memory": "Memory",
    "thread_handling": "Thread handling",
    "engine": "Storage engine in use",
    "plugin": "Plugin installed and active",
    "feature": "Feature used",
    "collation": "Collation in use",
    "charset": "Character set in use",
}
# Dimensions whose values count servers per value (a server has one value of each).
ONE_VALUE = [
    "series",
    "version",
    "build",
    "os",
    "distribution",
    "distribution_release",
    "architecture",
    "country",
    "cpu",
    "memory",
    "thread_handling",
]
# Dimensions where a server may have many values (shown as the share of servers).
MANY_VALUES = ["engine", "plugin", "feature", "collation", "charset"]
# Pairs counted together for adoption, upgrade lag and end-of-life exposure per distribution.
PAIRS = {
    "distribution_series": ("distribution", "series"),
    "distribution_version": ("distribution", "version"),
}
PAIR_SEPARATOR = " | "

ARCHITECTURES = {
    "x86_64": "x86_64", "x64": "x86_64", "amd64": "x86_64", "x86-64": "x86_64",
    "aarch64": "aarch64", "arm64": "aarch64",
    "i386": "x86", "i486": "x86", "i586": "x86", "i686": "x86", "x86": "x86",
    "armv6l": "arm (32-bit)", "armv7l": "arm (32-bit)", "armv8l": "arm (32-bit)",
    "ppc64le": "ppc64le", "s390x": "s390x", "riscv64": "riscv64",
}  # fmt: skip
OPERATING_SYSTEMS = {
    "linux": "Linux",
    "windows": "Windows",
    "darwin": "macOS",
    "freebsd": "FreeBSD",
    "sunos": "Solaris",
    "aix": "AIX",
}
# (pattern searched in Uname_distribution, family, parts of the release number kept)
DISTRIBUTIONS = [
    (r"raspbian", "Raspbian", 1),
    (r"debian", "Debian", 1),
    (r"linux mint", "Linux Mint", 1),
    (r"ubuntu", "Ubuntu", 2),
    (r"red hat enterprise|rhel", "RHEL", 1),
    (r"rocky", "Rocky Linux", 1),
    (r"almalinux", "AlmaLinux", 1),
    (r"centos", "CentOS", 1),
    (r"oracle linux", "Oracle Linux", 1),
    (r"fedora", "Fedora", 1),
    (r"opensuse", "openSUSE", 2),
    (r"suse linux enterprise|sles", "SLES", 1),
    (r"amazon linux", "Amazon Linux", 1),
    (r"alpine", "Alpine", 2),
    (r"arch linux", "Arch Linux", 0),
    (r"gentoo", "Gentoo", 0),
]
# (pattern searched in the version suffix after major.minor.patch, who built the binary)
BUILDS = [
    (r"maria~|\+maria", "MariaDB repository"),
    (r"deb\d+u\d+|\+deb\d|~deb\d", "Debian"),
    (r"ubuntu", "Ubuntu"),
    (r"\.el\d|el\d+_\d", "Red Hat"),
    (r"\.fc\d", "Fedora"),
    (r"suse|sles", "SUSE"),
]
UPSTREAM_BUILD = "MariaDB (no distribution suffix)"
CPU_BUCKETS = [(1, "1"), (2, "2"), (4, "3–4"), (8, "5–8"), (16, "9–16"), (32, "17–32"),
               (64, "33–64"), (None, "more than 64")]  # fmt: skip
MEMORY_BUCKETS = [(2, "≤ 2 GiB"), (4, "2–4 GiB"), (8, "4–8 GiB"), (16, "8–16 GiB"),
                  (32, "16–32 GiB"), (64, "32–64 GiB"), (128, "64–128 GiB"),
                  (None, "more than 128 GiB")]  # fmt: skip
STORAGE_ENGINES = {
    "ARCHIVE", "ARIA", "BLACKHOLE", "COLUMNSTORE", "CONNECT", "CSV", "FEDERATED",
    "FEDERATEDX", "INNODB", "MEMORY", "MERGE", "MRG_MYISAM", "MROONGA", "MYISAM",
    "OQGRAPH", "PERFORMANCE_SCHEMA", "ROCKSDB", "S3", "SEQUENCE", "SPHINX", "SPIDER",
    "TOKUDB", "XTRADB",
}  # fmt: skip
CHARACTER_SETS = {
    "armscii8", "ascii", "big5", "binary", "cp1250", "cp1251", "cp1256", "cp1257", "cp850",
    "cp852", "cp866", "cp932", "dec8", "eucjpms", "euckr", "gb2312", "gbk", "geostd8",
    "greek", "hebrew", "hp8", "keybcs2", "koi8r", "koi8u", "latin1", "latin2", "latin5",
    "latin7", "macce", "macroman", "sjis", "swe7", "tis620", "ucs2", "ujis", "utf16",
    "utf16le", "utf32", "utf8mb3", "utf8mb4",
}  # fmt: skip
GIB = 1024**3

MAPPING_VERSION = hashlib.sha256(
    repr(
        (
            DIMENSIONS,
            ARCHITECTURES,
            OPERATING_SYSTEMS,
            DISTRIBUTIONS,
            BUILDS,
            UPSTREAM_BUILD,
            CPU_BUCKETS,
            MEMORY_BUCKETS,
            STORAGE_ENGINES,
            CHARACTER_SETS,
            "plugins-v1",
            "country-v1",
            "servers-by-release-v1",  # a server counts by a full report naming its release
        )
    ).encode()
).hexdigest()[:16]

_DISTRIBUTIONS = [(re.compile(p, re.I), family, parts) for p, family, parts in DISTRIBUTIONS]
_BUILDS = [(re.compile(p, re.I), builder) for p, builder in BUILDS]
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_SOURCE_PREFIX = re.compile(r"^[\w.-]{1,20}:\s*")  # "os-release: ", "lsb: ", "centos: "


def architecture(machine: str) -> str:
    machine = machine.strip()
    return ARCHITECTURES.get(machine.lower(), machine.lower())


def operating_system(sysname: str) -> str:
    sysname = sysname.strip()
    return OPERATING_SYSTEMS.get(sysname.lower(), sysname)


def distribution(raw: str, os_name: str = "Linux") -> tuple[str, str]:
    """(family, "family release") of a Uname_distribution value.

    Servers without one (Windows, macOS) get their operating system as the family.
    """
    text = _SOURCE_PREFIX.sub("", raw.strip(), count=1).strip()
    if not text:
        family = operating_system(os_name) if os_name else ""
        return family, family
    for pattern, family, parts in _DISTRIBUTIONS:
        match = pattern.search(text)
        if match:
            if not parts:
                return family, family
            number = _NUMBER.search(text, match.end())
            if number is None:
                return family, family
            return family, f"{family} {'.'.join(number.group().split('.')[:parts])}"
    name = text[:60]
    return name, name


def build(suffix: str) -> str:
    """Who built the binary, from what follows major.minor.patch in VERSION."""
    for pattern, builder in _BUILDS:
        if pattern.search(suffix):
            return builder
    return UPSTREAM_BUILD


def cpu_bucket(count: int | None) -> str:
    if not count:
        return ""
    return next(label for limit, label in CPU_BUCKETS if limit is None or count <= limit)


def memory_bucket(memory_bytes: int | None) -> str:
    if not memory_bytes:
        return ""
    gib = memory_bytes / GIB
    return next(label for limit, label in MEMORY_BUCKETS if limit is None or gib <= limit)


# Dimensions whose values are ranges in a fixed order: a small bucket may only be merged
# with its neighbours, and the merged bucket is named after the range it covers.
ORDERED_BUCKETS = {
    "cpu": [label for _, label in CPU_BUCKETS],
    "memory": [label for _, label in MEMORY_BUCKETS],
}
BUCKET_ORDER = {
    dimension: {label: index for index, label in enumerate(labels)}
    for dimension, labels in ORDERED_BUCKETS.items()
}


def bucket_range(dimension: str, first: int, last: int) -> str:
    """The label of buckets ``first`` to ``last`` (indexes into ORDERED_BUCKETS) merged."""
    buckets = CPU_BUCKETS if dimension == "cpu" else MEMORY_BUCKETS
    if first == last:
        return buckets[first][1]
    if dimension == "cpu":
        low = cast(int, buckets[first - 1][0]) + 1 if first else 1  # only the last is open
        high = buckets[last][0]
        if high is None:
            return "any number" if low == 1 else f"more than {low - 1}"
        return f"{low}–{high}"
    low = cast(int, buckets[first - 1][0]) if first else 0  # only the last is open
    high = buckets[last][0]
    if high is None:
        return "any amount" if low == 0 else f"more than {low} GiB"
    return f"≤ {high} GiB" if low == 0 else f"{low}–{high} GiB"


def value_order(dimension: str):
    """A sort key for dimensions whose values have a natural order, else None."""
    if dimension in BUCKET_ORDER:
        order = BUCKET_ORDER[dimension]
        return lambda value: order.get(value, len(order))
    if dimension in ("series", "version"):
        return version_key
    return None


def version_key(value: str):
    return tuple(int(part) if part.isdigit() else -1 for part in value.split("."))


def collation(name: str) -> str:
    """Collation names as 10.6+ spells them: utf8_* became utf8mb3_*."""
    return "utf8mb3_" + name.removeprefix("utf8_") if name.startswith("utf8_") else name


def character_set(collation_name: str) -> str:
    prefix = collation_name.partition("_")[0]
    return prefix if prefix in CHARACTER_SETS else ""


def is_storage_engine(plugin: str) -> bool:
    return plugin.upper() in STORAGE_ENGINES


def is_listed_plugin(plugin: str) -> bool:
    """Plugins shown as plugins: not storage engines (their own dimension) and not the
    all-capitals INFORMATION_SCHEMA tables (and FEEDBACK) every server has."""
    return not is_storage_engine(plugin) and plugin != plugin.upper()


def pair(first: str, second: str) -> str:
    return f"{first}{PAIR_SEPARATOR}{second}" if first and second else ""


def values_of(row: dict) -> dict[str, list[str]]:
    """The dimension values of one full report (a Report as a dict of its fields)."""
    major, minor, patch = row["version_major"], row["version_minor"], row["version_patch"]
    series = f"{major}.{minor}" if major is not None and minor is not None else ""
    version = f"{series}.{patch}" if series and patch is not None else ""
    family, release = distribution(row["distribution"], row["os"])
    collations = sorted(
        {collation(name) for name, n in (row["collations"] or {}).items() if n and n > 0}
    )
    plugins = row["plugins"] or {}
    return {
        "series": [series],
        "version": [version],
        "build": [build(row["version_suffix"]) if version else ""],
        "os": [operating_system(row["os"])],
        "distribution": [family],
        "distribution_release": [release],
        "architecture": [architecture(row["architecture"])],
        "country": [(row.get("country") or "").upper()],
        "cpu": [cpu_bucket(row["cpu_count"])],
        "memory": [memory_bucket(row["memory_bytes"])],
        "thread_handling": [row["thread_handling"]],
        "engine": sorted(
            name for name, used in plugins.items() if used and used > 0 and is_storage_engine(name)
        ),
        "plugin": sorted(name for name in plugins if is_listed_plugin(name)),
        "feature": sorted(
            name.removeprefix("FEATURE_")
            for name, n in (row["features"] or {}).items()
            if n and n > 0
        ),
        "collation": collations,
        "charset": sorted({character_set(name) for name in collations} - {""}),
        "distribution_series": [pair(family, series)],
        "distribution_version": [pair(family, version)],
    }


REPORT_FIELDS = [
    "server_id",
    "version_major",
    "version_minor",
    "version_patch",
    "version_suffix",
    "os",
    "distribution",
    "architecture",
    "country",
    "cpu_count",
    "memory_bytes",
    "thread_handling",
    "plugins",
    "features",
    "collations",
]
