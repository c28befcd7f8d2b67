"""What a MariaDB server prints for ``SELECT VERSION()``, read as a release (pure logic).

A server prints its release and then what the build added: ``10.6.12-MariaDB-0ubuntu0.22.04.1-log``,
``11.4.10-MariaDB-log``, ``10.5.20-MariaDB-1:10.5.20+maria~ubu2004``. Over the client
protocol, 10.x servers put ``5.5.5-`` in front (so that old MySQL clients accept them);
that prefix is skipped. Anything that does not start with major.minor.patch is refused
with a message that says what was expected.
"""

import re
from dataclasses import dataclass

from core.numbers import stray_character

MAX_LENGTH = 200
# major.minor.patch, then the end or a separator that cannot continue a number.
RELEASE_AT_START = re.compile(
    r"^(?P<major>[0-9]{1,3})\.(?P<minor>[0-9]{1,3})\.(?P<patch>[0-9]{1,4})(?=$|[^0-9.])"
)
# The replication-compatibility prefix older clients see before the real version.
COMPATIBILITY_PREFIX = "5.5.5-"


NO_VERSION = "Give the version your server prints for SELECT VERSION(), e.g. 10.6.12-MariaDB-log."


class VersionStringError(ValueError):
    pass


@dataclass(frozen=True)
class ServerVersion:
    major: int
    minor: int
    patch: int
    suffix: str  # what follows the release: "-MariaDB-log", "" ...

    @property
    def version(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"

    @property
    def series(self) -> str:
        return f"{self.major}.{self.minor}"

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)


def parse_server_version(text: str) -> ServerVersion:
    """The release a ``SELECT VERSION()`` answer names, or ``VersionStringError``."""
    text = (text or "").strip()
    if not text:
        raise VersionStringError(NO_VERSION)
    if len(text) > MAX_LENGTH:
        raise VersionStringError(f"A version string is at most {MAX_LENGTH} characters long.")
    if text.startswith(COMPATIBILITY_PREFIX) and RELEASE_AT_START.match(
        text[len(COMPATIBILITY_PREFIX) :]
    ):
        text = text[len(COMPATIBILITY_PREFIX) :]
    match = RELEASE_AT_START.match(text)
    # the digits 0-9 only: a superscript or another script's digit may not continue the
    # release (issue 58)
    if not match or stray_character(text[match.end() : match.end() + 1]) is not None:
        raise VersionStringError(
            "This does not start with a MariaDB release number (major.minor.patch), as "
            "SELECT VERSION() prints it, e.g. 10.6.12-MariaDB-log or 11.4.10-MariaDB."
        )
    return ServerVersion(
        int(match["major"]), int(match["minor"]), int(match["patch"]), text[match.end() :]
    )
