from datetime import date

import factory

from feedback.trends.models import Rollup


class RollupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rollup

    period = Rollup.Period.MONTH
    period_start = date(2026, 3, 1)
    dimension = "servers"
    value = ""
    servers = 10
