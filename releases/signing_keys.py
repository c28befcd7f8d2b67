"""The keys that sign MariaDB release files, and which one signed a given release.

From the MariaDB documentation's ``gpg.md`` (summarised in the shared research notes,
``repo-config.md`` §1.5): the MariaDB Package Signing Key signed tarballs and packages
until the end of 2022; the MariaDB Signing Key signs them since 2023."""

from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class SigningKey:
    name: str
    email: str  # empty where the documentation names none
    fingerprint: str  # as gpg prints it, in groups of four
    key_url: str  # the armoured public key
    first_day: date | None  # the first release date it signed; None: from the start

    @property
    def fingerprint_hex(self) -> str:
        return self.fingerprint.replace(" ", "")


# Newest first.
KEYS = (
    SigningKey(
        name="MariaDB Signing Key",
        email="signing-key@mariadb.org",
        fingerprint="177F 4010 FE56 CA33 3630 0305 F165 6F24 C74C D1D8",
        key_url="https://mariadb.org/mariadb_release_signing_key.asc",
        first_day=date(2023, 1, 1),
    ),
    SigningKey(
        name="MariaDB Package Signing Key",
        email="",
        fingerprint="1993 69E5 404B D5FC 7D2F E43B CBCB 082A 1BB9 43DB",
        key_url="https://supplychain.mariadb.com/MariaDB-Server-GPG-KEY-2010",
        first_day=None,
    ),
)


def key_for(release_date: date) -> SigningKey:
    """The key that signed the files of a release published on ``release_date``."""
    return next(k for k in KEYS if k.first_day is None or release_date >= k.first_day)


def last_day(key: SigningKey) -> date | None:
    """The last release date ``key`` signed; None while it is the current key."""
    newer = KEYS[: KEYS.index(key)]
    return newer[-1].first_day - timedelta(days=1) if newer else None
