"""Distribution labels name each release once and right: "CentOS Stream 9", not
"CentOS Stream Stream 9" (issue #18)."""

import itertools
import re

import pytest
from pytest_django.asserts import assertContains, assertNotContains

from releases.repoconfig import services
from releases.repoconfig.models import DistributionRelease, release_label

# Names as the reference repo-config notes (/work/shared/reference) and the distributions write them.
EXPECTED = {
    ("centos", "9"): "CentOS Stream 9",
    ("centos", "10"): "CentOS Stream 10",
    ("debian", "bookworm"): 'Debian 12 "Bookworm"',
    ("rhel", "8"): "Red Hat Enterprise Linux 8",
    ("rhel", "9"): "Red Hat Enterprise Linux 9",
    ("ubuntu", "noble"): 'Ubuntu 24.04 "noble"',
    ("fedora", "42"): "Fedora 42",
    ("sles", "15.6"): "SUSE Linux Enterprise Server 15 SP6",
}


def _doubled(label: str) -> list[str]:
    words = re.findall(r"\w+", label.casefold())
    return [a for a, b in itertools.pairwise(words) if a == b]


def test_every_distribution_release_label_says_each_word_once(seeded):
    releases = list(DistributionRelease.objects.with_related())
    assert len(releases) > 20
    for release in releases:
        assert not _doubled(release.label), release.label
        assert release.label.startswith(release.distribution.name), release.label
        assert str(release) == release.label
    labels = {(r.distribution.slug, r.key): r.label for r in releases}
    for key, label in EXPECTED.items():
        assert labels[key] == label


def test_the_options_and_the_generator_page_use_the_labels(client, seeded):
    centos = next(d for d in services.options()["distributions"] if d["slug"] == "centos")
    assert [r["label"] for r in centos["releases"]] == ["CentOS Stream 9", "CentOS Stream 10"]
    page = client.get("/download/repo-config/")
    assertContains(
        page, '<option value="9" data-distro="centos">CentOS Stream 9</option>', html=True
    )
    assertNotContains(page, "Stream Stream")


@pytest.mark.parametrize(
    ("distribution", "release", "label"),
    [
        ("CentOS Stream", "Stream 9", "CentOS Stream 9"),
        ("CentOS Stream", "9", "CentOS Stream 9"),
        ("openSUSE Leap", "Leap 15.6", "openSUSE Leap 15.6"),
        ("Linux Mint", '22 "Wilma"', 'Linux Mint 22 "Wilma"'),
        ("Fedora", "Fedora Linux 42", "Fedora Linux 42"),
        ("Debian", "12", "Debian 12"),
    ],
)
def test_release_label(distribution, release, label):
    assert release_label(distribution, release) == label
