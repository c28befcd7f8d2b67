import csv
import json

from django.db.models import Prefetch
from django.http import FileResponse, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema

from benchmarks.charts import percent_change, suite_charts
from benchmarks.models import Attachment, Measurement, Run, Suite


def _suite(slug):
    runs = Run.objects.prefetch_related(
        Prefetch("measurements", queryset=Measurement.objects.order_by("id"))
    )
    return get_object_or_404(
        Suite.objects.published().prefetch_related(Prefetch("runs", queryset=runs), "attachments"),
        slug=slug,
    )


def index(request):
    suites = Suite.objects.published().select_related("news_post")
    return render(request, "benchmarks/index.html", {"suites": suites})


def suite(request, slug):
    suite = _suite(slug)
    runs = list(suite.runs.all())
    context = {
        "suite": suite,
        "runs": runs,
        "charts": suite_charts(runs),
        "attachments": list(suite.attachments.all()),
    }
    return render(request, "benchmarks/suite.html", context)


def run_detail(request, slug, pk):
    suite = _suite(slug)
    run = get_object_or_404(
        Run.objects.prefetch_related("measurements", "attachments"), suite=suite, pk=pk
    )
    return render(request, "benchmarks/run.html", {"suite": suite, "run": run})


def compare(request, slug):
    suite = _suite(slug)
    runs = {str(run.pk): run for run in suite.runs.all()}
    a, b = runs.get(request.GET.get("a", "")), runs.get(request.GET.get("b", ""))
    rows = []
    if a and b:
        b_values = {
            (m.metric, json.dumps(m.parameters, sort_keys=True)): m for m in b.measurements.all()
        }
        for m in a.measurements.all():
            other = b_values.get((m.metric, json.dumps(m.parameters, sort_keys=True)))
            if other:
                change = percent_change(m.value, other.value, m.higher_is_better)
                rows.append({"metric": m.metric, "parameters": m.parameters, "unit": m.unit, "a": m.value,
                             "b": other.value, "change": change, "better": m.higher_is_better})  # fmt: skip
    context = {"suite": suite, "runs": list(runs.values()), "a": a, "b": b, "rows": rows}
    return render(request, "benchmarks/compare.html", context)


def _rows(suite):
    for run in suite.runs.all():
        for m in run.measurements.all():
            yield run, m


@extend_schema(tags=["benchmarks"], responses={200: OpenApiTypes.OBJECT, 404: None})
def export_json(request, slug):
    suite = _suite(slug)
    data = {
        "suite": suite.slug,
        "title": suite.title,
        "runs": [
            {"id": run.pk, "label": run.label, "variant": run.variant,
             "environment": {"hardware": run.hardware, "os": run.os, "server_version": run.server_version,
                             "server_config": run.server_config, "client": run.client,
                             "date": run.run_date.isoformat() if run.run_date else None},
             "measurements": [{"metric": m.metric, "unit": m.unit, "higher_is_better": m.higher_is_better,
                               "parameters": m.parameters, "value": m.value, "min": m.minimum,
                               "median": m.median, "max": m.maximum, "stddev": m.stddev}
                              for m in run.measurements.all()]}
            for run in suite.runs.all()
        ],
    }  # fmt: skip
    response = JsonResponse(data)
    patch_cache_control(response, public=True, max_age=300)
    return response


@extend_schema(tags=["benchmarks"], responses={(200, "text/csv"): OpenApiTypes.STR, 404: None})
def export_csv(request, slug):
    suite = _suite(slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{suite.slug}.csv"'
    writer = csv.writer(response)
    writer.writerow(["run", "label", "metric", "unit", "higher_is_better", "parameters", "value", "min", "median",
                     "max", "stddev"])  # fmt: skip
    for run, m in _rows(suite):
        writer.writerow([run.pk, run.label, m.metric, m.unit, m.higher_is_better, json.dumps(m.parameters),
                         m.value, m.minimum, m.median, m.maximum, m.stddev])  # fmt: skip
    patch_cache_control(response, public=True, max_age=300)
    return response


def download_attachment(request, slug, pk):
    attachment = get_object_or_404(Attachment, pk=pk, suite__slug=slug, suite__is_published=True)
    name = attachment.file.name.rsplit("/", 1)[-1]
    return FileResponse(
        attachment.file.open("rb"), as_attachment=True, filename=name, content_type="text/plain"
    )
