"""Complementary suppression (issue 49, item 4): a withheld cell can never be worked out
from the published total and the other cells, and what is published is true."""

from hypothesis import given, settings
from hypothesis import strategies as st

from feedback.anonymity import publish_with_total

MINIMUM = 5
cells_strategy = st.dictionaries(
    st.sampled_from(["Debian", "Ubuntu", "RHEL", "Fedora", "Rocky", "Windows", "other"]),
    st.integers(min_value=0, max_value=40),
    min_size=1,
)


def possible_values(published, total):
    """The values a withheld cell can have, seen by a reader who knows the published
    cells and the total: the withheld cells are counts (0 or more) that make up the rest."""
    hidden = [value for value, servers in published.items() if servers is None]
    rest = total - sum(servers for servers in published.values() if servers is not None)
    return {rest} if len(hidden) == 1 else set(range(rest + 1))


@settings(max_examples=400, deadline=None)
@given(cells_strategy)
def test_no_withheld_cell_is_revealed_and_every_figure_is_true(cells):
    total = sum(cells.values())
    published = publish_with_total(cells, total, MINIMUM)
    assert set(published) == set(cells)
    for name, servers in published.items():
        if servers is not None:
            # True, and never a small count on its own (0 only when every withheld is 0).
            assert servers == cells[name]
            assert servers >= MINIMUM or servers == 0
        else:
            assert total >= 0
    hidden = [name for name, servers in published.items() if servers is None]
    hidden_sum = sum(cells[name] for name in hidden)
    if total >= MINIMUM:
        # Published totals: the withheld cells are never alone, never pinned at N - 1 each.
        assert not (hidden and hidden_sum == 0)
        if hidden:
            assert len(hidden) >= 2
            if all(cells[name] < MINIMUM for name in hidden):
                # Only when no cell is left to withhold with them (every cell is small,
                # e.g. 4 and 4 of 8) can they be N - 1 each.
                pinned = hidden_sum == len(hidden) * (MINIMUM - 1)
                assert not pinned or all(servers is None for servers in published.values())
    for name in hidden:
        assert cells[name] in possible_values(published, total)
        if total >= MINIMUM:
            assert len(possible_values(published, total)) > 1


def test_the_issues_case_zeros_beside_a_total_are_zeros():
    """End-of-life servers: 6 in all, Ubuntu 6; the others were drawn as "fewer than 5"."""
    cells = {"Ubuntu": 6, "Debian": 0, "AlmaLinux": 0, "Fedora": 0, "Rocky": 0, "Windows": 0}
    assert publish_with_total(cells, 6, MINIMUM) == cells


def test_one_small_cell_is_withheld_with_the_smallest_other():
    cells = {"Ubuntu": 20, "Debian": 9, "Fedora": 3}
    assert publish_with_total(cells, 32, MINIMUM) == {"Ubuntu": 20, "Debian": None, "Fedora": None}
    # Without a published total nothing can be worked out: only the small cell is withheld.
    assert publish_with_total(cells, None, MINIMUM) == {"Ubuntu": 20, "Debian": 9, "Fedora": None}
    # Two small cells that can only be 4 and 4 are not left to be read off either.
    pinned = {"Ubuntu": 20, "Debian": 9, "Fedora": 4, "Rocky": 4}
    assert publish_with_total(pinned, 37, MINIMUM)["Debian"] is None
