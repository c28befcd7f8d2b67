"""[[benchmark-chart <suite-slug> <chart-number>]] in a news post embeds that chart."""

from django.template.loader import render_to_string
from django.templatetags.static import static

from benchmarks.charts import suite_charts
from benchmarks.models import Suite
from core.shortcodes import register


@register("benchmark-chart")
def benchmark_chart(slug, number="1", *rest):
    suite = (
        Suite.objects.published().prefetch_related("runs__measurements").filter(slug=slug).first()
    )
    if suite is None:
        raise LookupError(f"no published benchmark suite {slug}")
    charts = suite_charts(list(suite.runs.all()))
    index = int(number) - 1 if number.isdigit() else 0
    if not 0 <= index < len(charts):
        raise LookupError(f"suite {slug} has no chart {number}")
    chart_id = f"embed-{slug}-{index + 1}"
    chart = dict(charts[index], id=chart_id, data_id=f"{chart_id}-data")
    figure = render_to_string("benchmarks/includes/chart.html", {"chart": chart, "suite": suite})
    scripts = "".join(
        f'<script src="{static(path)}" defer></script>'
        for path in ["vendor/chartjs/chart.umd.min.js", "js/benchmarks.js"]
    )
    return figure + scripts
