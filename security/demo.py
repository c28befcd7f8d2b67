"""Demo content: the real advisories of security/data/mariadb-security-advisories.json
(100 CVEs fixed in MariaDB Server, 2021-2026; the notes beside the file say how they were
compiled). Nothing is invented."""

from security.advisory_file import IN_REPO_ADVISORIES, read_file
from security.services import import_advisories


def load(log):
    report = import_advisories(read_file(IN_REPO_ADVISORIES))
    for line in report.lines():
        log(f"security: {line}")
