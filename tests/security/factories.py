from datetime import UTC, date, datetime
from decimal import Decimal

import factory

from security.models import Advisory, AffectedRange, Severity
from tests.releases.factories import SeriesFactory


class AdvisoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Advisory

    advisory_id = factory.Sequence(lambda n: f"CVE-2030-{n + 10000}")
    published = date(2026, 6, 12)
    summary = "A crafted query lets a signed-in user crash the server."
    component = "optimizer"
    rating = Severity.MEDIUM
    cvss_score = Decimal("6.5")
    cvss_vector = "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H"
    modified = datetime(2026, 6, 12, 9, 0, tzinfo=UTC)


class AffectedRangeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AffectedRange

    advisory = factory.SubFactory(AdvisoryFactory)
    series = factory.SubFactory(SeriesFactory)
    basis = AffectedRange.Basis.DOCS
