import factory

from benchmarks.models import Measurement, Run, Suite


class SuiteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Suite
        django_get_or_create = ["slug"]

    slug = factory.Sequence(lambda n: f"suite-{n}")
    title = factory.LazyAttribute(lambda s: s.slug.replace("-", " ").capitalize())
    is_published = True


class RunFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Run

    suite = factory.SubFactory(SuiteFactory)
    label = factory.Sequence(lambda n: f"run-{n}")
    server_version = "11.4.2"


class MeasurementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Measurement

    run = factory.SubFactory(RunFactory)
    metric = "transactions per second"
    unit = "tps"
    value = 1000.0
