import hashlib
from datetime import date

import factory

from releases.models import Release, ReleaseFile, Series


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Series
        django_get_or_create = ["version"]

    version = "11.4"
    name = factory.LazyAttribute(lambda s: f"MariaDB {s.version}")
    status = Series.Status.STABLE
    support_type = Series.SupportType.LONG_TERM
    eol_date = date(2029, 5, 29)


class ReleaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Release

    series = factory.SubFactory(SeriesFactory)
    version = factory.Sequence(lambda n: f"11.4.{n + 1}")
    maturity = Release.Maturity.GA
    release_date = date(2024, 5, 29)


class ReleaseFileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ReleaseFile

    release = factory.SubFactory(ReleaseFactory)
    os = ReleaseFile.OS.SOURCE
    package_type = ReleaseFile.PackageType.SOURCE_TAR
    file_name = factory.LazyAttribute(lambda f: f"mariadb-{f.release.version}.tar.gz")
    path = factory.LazyAttribute(lambda f: f"mariadb-{f.release.version}/source/{f.file_name}")
    md5 = factory.LazyAttribute(
        lambda f: hashlib.md5(f.file_name.encode(), usedforsecurity=False).hexdigest()
    )
    sha1 = factory.LazyAttribute(
        lambda f: hashlib.sha1(f.file_name.encode(), usedforsecurity=False).hexdigest()
    )
    sha256 = factory.LazyAttribute(lambda f: hashlib.sha256(f.file_name.encode()).hexdigest())
    sha512 = factory.LazyAttribute(lambda f: hashlib.sha512(f.file_name.encode()).hexdigest())
