"""CVSS 3.x base vectors read out in words (pure: no database).

``read_vector("CVSS:3.1/AV:N/AC:L/...")`` gives each base metric as ("attack vector",
"network") in the order the specification lists them, or raises ``VectorError`` naming
what is wrong, so a vector staff type into the admin is checked by the same rule.
"""

import re

# Metric abbreviation -> (its name in words, {value abbreviation: value in words}), in the
# order of the CVSS v3.0 and v3.1 specifications (section 2, the base metric group).
BASE_METRICS = {
    "AV": ("attack vector", {"N": "network", "A": "adjacent network", "L": "local", "P": "physical"}),
    "AC": ("attack complexity", {"L": "low", "H": "high"}),
    "PR": ("privileges required", {"N": "none", "L": "low", "H": "high"}),
    "UI": ("user interaction", {"N": "none", "R": "required"}),
    "S": ("scope", {"U": "unchanged", "C": "changed"}),
    "C": ("confidentiality impact", {"N": "none", "L": "low", "H": "high"}),
    "I": ("integrity impact", {"N": "none", "L": "low", "H": "high"}),
    "A": ("availability impact", {"N": "none", "L": "low", "H": "high"}),
}  # fmt: skip
VECTOR_PREFIX = re.compile(r"^CVSS:3\.[01]/")


class VectorError(ValueError):
    pass


def read_vector(vector: str) -> list[tuple[str, str]]:
    """The base metrics of a CVSS 3.0 or 3.1 vector, in words, in the specification's order."""
    if not VECTOR_PREFIX.match(vector or ""):
        raise VectorError(f"{vector!r} is not a CVSS 3.0 or 3.1 vector (CVSS:3.1/AV:N/...)")
    given: dict[str, str] = {}
    for part in vector.split("/")[1:]:
        metric, _, value = part.partition(":")
        if metric not in BASE_METRICS:
            raise VectorError(f"{vector!r}: {metric!r} is not a CVSS 3 base metric")
        if metric in given:
            raise VectorError(f"{vector!r} gives {metric} twice")
        if value not in BASE_METRICS[metric][1]:
            raise VectorError(f"{vector!r}: {value!r} is not a value of {metric}")
        given[metric] = value
    missing = [metric for metric in BASE_METRICS if metric not in given]
    if missing:
        raise VectorError(f"{vector!r} lacks {', '.join(missing)}")
    return [(name, values[given[metric]]) for metric, (name, values) in BASE_METRICS.items()]


def in_words(vector: str) -> str:
    """One line: "attack vector: network, attack complexity: low, ..."."""
    return ", ".join(f"{name}: {value}" for name, value in read_vector(vector))
