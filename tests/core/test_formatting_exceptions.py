"""The formatter lays out the code; ``# fmt: skip`` is kept for data tables, which read
better aligned by hand, and there are few of them (docs/ARCHITECTURE.md, *Tests*)."""

from tests.project import ROOT, tracked_files

# The project's own code outside the tests: apps, config, scripts, deploy, bench.
MOST_SKIPS = 30


def skipped_statements() -> list[str]:
    found = []
    for path in tracked_files("*.py"):
        relative = path.relative_to(ROOT)
        if relative.parts[0] == "tests" or "migrations" in relative.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.rstrip().endswith("# fmt: skip"):
                found.append(f"{relative}:{number}")
    return found


def test_fmt_skip_is_rare_in_the_code():
    skipped = skipped_statements()
    assert len(skipped) <= MOST_SKIPS, skipped
