import factory

from releases.repoconfig.models import Availability, Distribution, DistributionRelease, Mirror
from tests.releases.factories import SeriesFactory


class MirrorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Mirror
        django_get_or_create = ["mirror_id"]

    mirror_id = "osuosl"
    name = "OSU Open Source Lab"
    country = "US"
    base_url = "https://ftp.osuosl.org/pub/mariadb/"


class DistributionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Distribution
        django_get_or_create = ["slug"]

    slug = "debian"
    name = "Debian"
    family = "apt"
    repo_path = factory.LazyAttribute(lambda d: d.slug)


class DistributionReleaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = DistributionRelease

    distribution = factory.SubFactory(DistributionFactory)
    name = '12 "bookworm"'
    key = "bookworm"


class AvailabilityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Availability

    series = factory.SubFactory(SeriesFactory)
    release = factory.SubFactory(DistributionReleaseFactory)
    architectures = "amd64 arm64"
