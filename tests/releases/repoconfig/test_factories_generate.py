"""The generator over a catalogue made with factories: one series on one release."""

from datetime import date

import pytest

from releases.repoconfig import services
from tests.releases.factories import SeriesFactory
from tests.releases.repoconfig.factories import AvailabilityFactory, MirrorFactory

pytestmark = pytest.mark.django_db


def test_a_release_past_its_end_of_life_is_warned_about():
    MirrorFactory()
    AvailabilityFactory(
        series=SeriesFactory(version="10.11", eol_date=date(2028, 2, 16)),
        release__eol_date=date(2026, 6, 10),
    )
    generated = services.generate(
        distro="debian",
        release="bookworm",
        version="10.11",
        mirror="osuosl",
        today=date(2026, 11, 22),
    )
    assert generated.warnings == ['Debian 12 "bookworm" reached its end of life on 10 June 2026.']
    assert "https://ftp.osuosl.org/pub/mariadb/repo/10.11/debian" in generated.config.content


def test_a_series_not_built_for_the_release_is_unsupported():
    MirrorFactory()
    AvailabilityFactory(series=SeriesFactory(version="11.4"))
    with pytest.raises(services.UnsupportedChoice):
        services.generate(distro="debian", release="bookworm", version="10.11", mirror="osuosl")
