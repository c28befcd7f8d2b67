import factory

from benchmarks.models import Measurement, Run, Suite


class SuiteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Suite

    slug = factory.Sequence(lambda n: f"suite-{n}")
    title = factory.Sequence(lambda n: f"Suite {n}")
    is_published = True


class RunFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Run

    suite = factory.SubFactory(SuiteFactory)
    label = factory.Sequence(lambda n: f"run {n}")
    status = Run.Status.PUBLISHED
    server_version = "11.4.2"
    # This project's machine and tool (benchmarks/demo_data/sysbench/environment.txt)
    hardware = "AMD EPYC, 2 cores, 23 GiB RAM"
    os = "Debian GNU/Linux 12 (bookworm)"
    client = "sysbench 1.0.20"
    source = "bench/sysbench_runs.sh on this project's machine"


class MeasurementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Measurement

    run = factory.SubFactory(RunFactory)
    metric = "transactions per second"
    unit = "tps"
    higher_is_better = True
    value = 100.0
