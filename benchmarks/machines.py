"""Which runs were measured on the same machine (pure: hardware text in, answers out).

A run's hardware is free text, but the tools that fill it write the same facts: the CPU
model, the cores and the memory ("AMD EPYC, 2 cores, 23 GiB RAM"). Two texts name one
machine when those three facts match, the memory to the GiB a tool reports give or take
its rounding: ``free -g`` (bench/sysbench_runs.sh) truncates 23.5 GiB to 23 where
bench/submit_run.py rounds it to 24, so reports one GiB apart are the same memory (issue
57). Text that does not state all three facts is compared as text (spacing and case
aside)."""

import re
from dataclasses import dataclass

# How many GiB a unit is; "GB" as tools print it is taken in decimal gigabytes.
_GIB = {"tib": 1024.0, "tb": 1e12 / 2**30, "gib": 1.0, "gb": 1e9 / 2**30, "g": 1.0, "mib": 1 / 1024}
_CORES = re.compile(r"([0-9]{1,4}) *(?:cpu )?(?:cores?|vcpus?|cpus?|threads?)", re.IGNORECASE)
_MEMORY = re.compile(
    r"([0-9]{1,7}(?:\.[0-9]{1,3})?) *(tib|tb|gib|gb|g|mib)(?: +(?:of +)?(?:ram|memory))?",
    re.IGNORECASE,
)
# Reports of one memory size differ by a tool's rounding: at most one GiB.
MEMORY_TOLERANCE_GIB = 1.0


def _plain(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Machine:
    cpu: str
    cores: int
    memory_gib: float


def machine(hardware: str) -> Machine | None:
    """The CPU model, cores and memory a hardware text states, or None when it does not
    state all three (each part of the text, between commas, is one fact)."""
    cpu, cores, memory = [], None, None
    for part in (part.strip() for part in (hardware or "").split(",")):
        if not part:
            continue
        if cores is None and (found := _CORES.fullmatch(part)):
            cores = int(found[1])
        elif memory is None and (found := _MEMORY.fullmatch(part)):
            memory = float(found[1]) * _GIB[found[2].lower()]
        else:
            cpu.append(part)
    if not cpu or cores is None or memory is None:
        return None
    return Machine(_plain(", ".join(cpu)), cores, memory)


def same_machine(a: str, b: str) -> bool:
    """Whether two hardware texts name one machine (see the module's rule)."""
    if _plain(a) == _plain(b):
        return True
    first, second = machine(a), machine(b)
    if first is None or second is None:
        return False
    return (
        first.cpu == second.cpu
        and first.cores == second.cores
        and abs(first.memory_gib - second.memory_gib) <= MEMORY_TOLERANCE_GIB
    )
