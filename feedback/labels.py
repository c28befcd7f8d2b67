"""The one rule that says which report label (FEEDBACK_USER_INFO) a test-traffic rule names
(pure: no database, no Django).

A label is compared as a person reads it: case ignored (Unicode case folding, so "STRASSE"
and "straße" agree) and spacing ignored: any run of whitespace, Unicode's included (a tab,
a no-break space), counts as one space, and none at either end. Processing a new report,
re-marking every report when staff change a rule, and the endpoint's check for MariaDB's
own test suite all compare through ``label_key``; PostgreSQL's ``lower(trim(...))`` had
trimmed spaces only, so a report that processing marked was counted again after the next
rule change.
"""

TEST_USER_INFO = "mysql-test"  # what MariaDB's own test suite sends


def label_key(label: str) -> str:
    """What two labels that name the same thing have in common."""
    return " ".join(label.split()).casefold()


def names_test_traffic(label: str, rule_keys: set[str] | frozenset[str]) -> bool:
    """Whether ``label`` is one a test-traffic rule names (``rule_keys``: their
    ``label_key``), or MariaDB's own test suite's."""
    key = label_key(label)
    return key == TEST_USER_INFO or key in rule_keys
