"""[[benchmark-chart <suite-slug> <metric> [x:<parameter>]]] in a news post embeds the
suite page's chart of that metric (its slug, as in the chart's permalink; a number still
names the suite page's Nth chart)."""

from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse

from benchmarks import charts, versions
from benchmarks.models import Suite
from core.shortcodes import register


@register("benchmark-chart")
def benchmark_chart(slug, metric="1", *options):
    suite = Suite.objects.with_published_runs().filter(slug=slug).first()
    if suite is None:
        raise LookupError(f"no published benchmark suite {slug}")
    all_runs = list(suite.runs.all())
    name, metric_slug = charts.find_metric(all_runs, metric)
    if name is None:
        raise LookupError(f"suite {slug} has no chart {metric}")
    x = next((option[2:] for option in options if option.startswith("x:")), None)
    chart = charts.build_chart(
        versions.charted_runs(suite, all_runs, name),
        name,
        x=x,
        slug=metric_slug,
        id_prefix=f"embed-{slug}",
        colours=charts.palette(all_runs),
    )
    if chart is None:
        raise LookupError(f"suite {slug} has no chart {metric}")
    page = reverse("benchmarks:chart", kwargs={"slug": slug, "metric": metric_slug})
    query = f"?x={x}" if x and chart["x_title"] == x else ""
    chart["links"] = {
        "page": page + query,
        "svg": reverse("benchmarks:chart-svg", kwargs={"slug": slug, "metric": metric_slug})
        + query,
        "png": reverse("benchmarks:chart-png", kwargs={"slug": slug, "metric": metric_slug})
        + query,
    }
    figure = render_to_string("benchmarks/includes/chart.html", {"chart": chart, "suite": suite})
    scripts = "".join(
        f'<script src="{static(path)}" defer></script>'
        for path in ["vendor/chartjs/chart.umd.min.js", "js/benchmarks.js"]
    )
    return figure + scripts
