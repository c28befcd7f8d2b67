"""What the real catalogue says on a given day, read from the data files themselves, so a
test that reads the demo catalogue states its expectations for the day it runs on (the
suite runs on any day: ``TEST_TODAY``)."""

from datetime import date

from releases.demo import read_in_repo_data


def _catalogue():
    catalogue, _ = read_in_repo_data()
    return catalogue


def series_with_a_stable_release(today: date) -> set[str]:
    return {
        r.series for r in _catalogue().releases if r.maturity == "ga" and r.release_date <= today
    }


def end_of_life(today: date) -> set[str]:
    """Series whose end of life has passed (the end-of-life day itself is still supported)."""
    return {s.version for s in _catalogue().series if s.eol_date and s.eol_date < today}


def supported(today: date) -> set[str]:
    """Series with a stable release whose end of life has not passed."""
    return series_with_a_stable_release(today) - end_of_life(today)


def not_end_of_life(today: date) -> set[str]:
    """Every series not past its end of life, those known only by their previews included."""
    catalogue = _catalogue()
    every = {s.version for s in catalogue.series} | {r.series for r in catalogue.releases}
    return every - end_of_life(today)
