import hashlib
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Prefetch
from django.http import FileResponse, Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema

from benchmarks import charts, history, versions
from benchmarks import compare as comparison
from benchmarks import render as images
from benchmarks.forms import RunUploadForm, TokenForm
from benchmarks.importers import ImportFailed
from benchmarks.models import Attachment, Run, SubmissionToken, Suite
from benchmarks.services import importing, permissions, tokens
from core import numbers, opendata
from core.send_limit import refuse

IMAGE_MAX_AGE = 3600


def _suite(slug):
    return get_object_or_404(Suite.objects.with_published_runs(), slug=slug)


def _x(request):
    value = request.GET.get("x", "")
    return value[:60] if value.isprintable() else ""


def index(request):
    suites = Suite.objects.published().select_related("news_post")
    return render(request, "benchmarks/index.html", {"suites": suites})


def _image_links(suite, chart, x=""):
    query = f"?x={x}" if x and x in chart.get("x_options", []) else ""
    kwargs = {"slug": suite.slug, "metric": chart["slug"]}
    links = {
        "page": reverse("benchmarks:chart", kwargs=kwargs) + query,
        "svg": reverse("benchmarks:chart-svg", kwargs=kwargs) + query,
        "png": reverse("benchmarks:chart-png", kwargs=kwargs) + query,
    }
    return {**links, "embed": _embed_snippet(links, f"{chart['metric']}: {suite.title}")}


def _embed_snippet(links, alt):
    """HTML for a README or a mail: the PNG (it carries its own context) linking to the page."""
    site = settings.SITE_URL.rstrip("/")
    return format_html(
        '<a href="{}{}"><img src="{}{}" alt="{}"></a>', site, links["page"], site, links["png"], alt
    )


def suite(request, slug):
    suite = _suite(slug)
    runs = list(suite.runs.all())
    x = _x(request)
    reference = versions.reference_hardware(suite, runs)
    # The main charts hold the runs on the reference machine only; each other machine's
    # runs have charts of their own, below them (issue 49).
    on_reference, other_machines = versions.by_machine(runs, reference)
    chart_list = charts.suite_charts(on_reference, x=x or None, every_run=runs)
    for chart in chart_list:
        chart["links"] = _image_links(suite, chart, x)
    machine_charts = [
        {
            "hardware": hardware,
            "runs": machine_runs,
            "charts": charts.suite_charts(
                machine_runs, x=x or None, every_run=runs, id_prefix=f"machine-{index}"
            ),
        }
        for index, (hardware, machine_runs) in enumerate(other_machines, start=1)
    ]
    all_metrics = charts.suite_metrics(runs)
    slugs = charts.metric_slugs(all_metrics)
    headline = set(charts.suite_metrics(runs, headline_only=True))
    # A history compares a run with the ones before it: on one machine only.
    found = history.histories(on_reference, axis=suite.history_axis)
    history_charts = []
    for index, item in enumerate(found):
        chart = history.history_chart(item, index)
        links = {
            fmt: reverse(
                "benchmarks:history-image",
                kwargs={"slug": suite.slug, "index": index, "fmt": fmt},
            )
            for fmt in ("svg", "png")
        }
        links["page"] = reverse("benchmarks:suite", kwargs={"slug": suite.slug}) + "#history"
        links["embed"] = _embed_snippet(links, f"{chart['title']}: {suite.title}")
        chart["links"] = links
        history_charts.append(chart)
    x_options = sorted(
        {
            option
            for chart in [*chart_list, *(c for m in machine_charts for c in m["charts"])]
            for option in chart["x_options"]
        }
    )
    default_a, default_b = comparison.default_pair(runs)
    lines = versions.version_lines(runs, reference)
    context = {
        "suite": suite,
        "runs": runs,
        "default_a": default_a,
        "default_b": default_b,
        "charts": chart_list,
        "x": x,
        "x_options": x_options if len(x_options) > 1 else [],
        "other_metrics": [(m, slugs[m]) for m in all_metrics if m not in headline],
        "history_charts": history_charts,
        "history_rule": history.RULE,
        "history_axis": history.AXIS_TITLES[suite.history_axis],
        "changes": history.changes(on_reference, axis=suite.history_axis),
        "reference_hardware": reference,
        "elsewhere": {run.pk for _, group in other_machines for run in group},
        "elsewhere_runs": [run for _, group in other_machines for run in group],
        "machine_charts": machine_charts,
        "version_charts": [versions.version_chart(line, i) for i, line in enumerate(lines)],
        "no_version_history": versions.no_history(runs, lines),
        "version_changes": versions.changes(lines),
        "choices": charts.run_choices(runs),
        "attachments": list(suite.attachments.all()),
    }
    return render(request, "benchmarks/suite.html", context)


def _chart_or_404(suite, metric_slug, x):
    runs = list(suite.runs.all())
    metric, slug = charts.find_metric(runs, metric_slug)
    if metric is None or slug != metric_slug:
        raise Http404("no such chart")
    charted = versions.charted_runs(suite, runs, metric)
    return charts.build_chart(charted, metric, x=x or None, slug=slug, colours=charts.palette(runs))


def chart_page(request, slug, metric):
    suite = _suite(slug)
    x = _x(request)
    chart = _chart_or_404(suite, metric, x)
    chart["links"] = _image_links(suite, chart, x)
    embed = (
        f"[[benchmark-chart {suite.slug} {chart['slug']}"
        + (f" x:{x}" if x and x in chart["x_options"] else "")
        + "]]"
    )
    return render(
        request, "benchmarks/chart.html", {"suite": suite, "chart": chart, "embed": embed, "x": x}
    )


def _image_response(request, spec, fmt):
    key = hashlib.sha256(
        json.dumps([spec, fmt, images.VERSION], sort_keys=True, default=str).encode()
    ).hexdigest()[:32]
    etag = f'"{key}"'
    response: HttpResponse
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        body = cache.get(f"benchmarks:image:{key}")
        if body is None:
            body = images.render(spec, fmt)
            cache.set(f"benchmarks:image:{key}", body, timeout=IMAGE_MAX_AGE * 24)
        response = HttpResponse(body, content_type=images.FORMATS[fmt])
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=IMAGE_MAX_AGE)
    return response


def _with_context(spec, suite, runs, page):
    return {
        **spec,
        "context": charts.image_context(
            suite.title, spec["metric"], runs, settings.SITE_URL.rstrip("/") + page
        ),
    }


def chart_image(request, slug, metric, fmt):
    suite = _suite(slug)
    x = _x(request)
    chart = _chart_or_404(suite, metric, x)
    page = _image_links(suite, chart, x)["page"]
    charted = versions.charted_runs(suite, list(suite.runs.all()), chart["metric"])
    runs = [
        run for run in charted if any(m.metric == chart["metric"] for m in run.measurements.all())
    ]
    return _image_response(request, _with_context(chart, suite, runs, page), fmt)


def history_image(request, slug, index, fmt):
    if fmt not in images.FORMATS:
        raise Http404("no such format")
    suite = _suite(slug)
    runs = versions.reference_runs(suite, list(suite.runs.all()))
    found = history.histories(runs, axis=suite.history_axis)
    if index >= len(found):
        raise Http404("no such history")
    chart = history.history_chart(found[index], index)
    page = reverse("benchmarks:suite", kwargs={"slug": suite.slug}) + "#history"
    return _image_response(request, _with_context(chart, suite, found[index]["runs"], page), fmt)


def run_detail(request, slug, pk):
    suite = _suite(slug)
    run = get_object_or_404(
        Run.objects.published().prefetch_related(
            "measurements", Prefetch("attachments", queryset=Attachment.objects.published())
        ),
        suite=suite,
        pk=pk,
    )
    context = {
        "suite": suite,
        "run": run,
        "rows": comparison.run_rows(run),
        "provenance": comparison.provenance(run),
        "details": comparison.detail_rows(run),
    }
    return render(request, "benchmarks/run.html", context)


def compare(request, slug):
    suite = _suite(slug)
    runs = list(suite.runs.all())
    by_id = {run.pk: run for run in runs}
    # run ids in the digits 0-9 only: a full-width id would be a page of its own (issue 58)
    a, b = (
        by_id.get(numbers.parse_int(request.GET[name], name)) if request.GET.get(name) else None
        for name in ("a", "b")
    )
    chosen = "a" in request.GET or "b" in request.GET
    if not chosen:  # start from two runs that can fairly be compared
        a, b = comparison.default_pair(runs)
    context = {
        "suite": suite,
        "choices": charts.run_choices(runs),
        "a": a,
        "b": b,
        "defaulted": not chosen and a is not None,
    }
    if a and b:
        result = comparison.compare_runs(a, b, x=_x(request) or None, colours=charts.palette(runs))
        context.update(result)
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
            {
                "id": run.pk,
                "label": run.label,
                "variant": run.variant,
                "environment": {
                    "hardware": run.hardware,
                    "os": run.os,
                    "server_version": run.server_version,
                    "server_build": run.server_build,
                    "server_config": run.server_config,
                    "client": run.client,
                    "date": run.run_date.isoformat() if run.run_date else None,
                    "measured_at": run.measured_at.isoformat() if run.measured_at else None,
                    "server_commit": run.server_commit,
                    "source": run.source,
                    "source_url": run.source_url,
                    # provenance fields the cited source does not state (not missing data)
                    "unstated": run.unstated or [],
                },
                # as the run's page shows it: a value or "not stated by the source"
                "provenance": comparison.download_facts(run),
                "details": run.details,
                "measurements": [
                    {
                        "metric": m.metric,
                        "unit": m.unit,
                        "higher_is_better": m.higher_is_better,
                        "parameters": m.parameters,
                        "value": m.value,
                        "min": m.minimum,
                        "median": m.median,
                        "max": m.maximum,
                        "stddev": m.stddev,
                        "samples": m.samples,
                    }
                    for m in run.measurements.all()
                ],
            }
            for run in suite.runs.all()
        ],
    }
    response = JsonResponse(data)
    patch_cache_control(response, public=True, max_age=300)
    return response


def csv_fields() -> list[opendata.Field]:
    """The suite CSV's columns (one row per measurement), in their published order."""
    Field = opendata.Field
    number = "number"
    return [
        Field("run", "integer", "The run's id", required=True),
        Field("label", "string", "The run's label, as the legends show it", required=True),
        Field("metric", "string", "What was measured", required=True),
        Field("unit", "string", "The unit of value, min, median, max and stddev"),
        Field("higher_is_better", "boolean", "Whether a higher value is better"),
        Field("parameters", "object", "The point's parameters, a JSON object (threads...)"),
        Field("value", number, "The measured value, in unit"),
        Field("min", number, "Smallest repetition, in unit"),
        Field("median", number, "Median repetition, in unit"),
        Field("max", number, "Largest repetition, in unit"),
        Field("stddev", number, "Standard deviation of the repetitions, in unit"),
        Field("samples", "array", "Every repetition, a JSON array, in unit"),
        Field("run_date", "date", "The date measured (ISO 8601)"),
        Field("measured_at", "datetime", "When measured (ISO 8601)"),
        Field("server_version", "string", "Server version"),
        Field("server_commit", "string", "Server commit"),
        Field("server_config", "string", "Server options"),
        Field("hardware", "string", "Hardware"),
        Field("os", "string", "Operating system"),
        Field("client", "string", "Benchmark tool"),
        Field("source", "string", "The cited source of the figures"),
        Field(
            "source_url",
            "string",
            "The cited source's address",
        ),
        Field(
            "unstated",
            "array",
            "Provenance fields the cited source does not state, a JSON array of column "
            "names: their cells are empty because the source leaves them unsaid, not "
            "because they were not recorded",
        ),
    ]


@extend_schema(tags=["benchmarks"], responses={(200, "text/csv"): OpenApiTypes.STR, 404: None})
def export_csv(request, slug):
    """Every measurement of the suite, typed: a provenance field not recorded or not stated
    is an empty cell, never prose (``unstated`` names the fields the source leaves unsaid)."""
    suite = _suite(slug)
    rows = [
        [
            run.pk,
            run.label,
            m.metric,
            m.unit,
            m.higher_is_better,
            m.parameters,
            m.value,
            m.minimum,
            m.median,
            m.maximum,
            m.stddev,
            m.samples or [],
            *comparison.download_values(run).values(),
            sorted(set(run.unstated or []) & set(comparison.DOWNLOAD_FIELDS)),
        ]
        for run, m in _rows(suite)
    ]
    response = opendata.csv_response(f"{suite.slug}.csv", csv_fields(), rows)
    patch_cache_control(response, public=True, max_age=300)
    return response


BENCHMARK_LICENCE = (
    "The MariaDB Foundation's measurements are published under the Creative Commons "
    "Attribution 4.0 International licence (credit the MariaDB Foundation); a run that "
    "cites a source (source, source_url) reports that source's figures, which stay under "
    "the source's own terms."
)


def datapackage(request):
    """The Data Package of the benchmark downloads: every published suite's CSV."""
    resources = [
        opendata.resource(
            suite.slug,
            request.build_absolute_uri(reverse("benchmarks:export-csv", args=[suite.slug])),
            suite.title,
            "Every published measurement of the suite, one row per measurement and point.",
            csv_fields(),
        )
        for suite in Suite.objects.published()
    ]
    descriptor = opendata.package(
        "mariadb-benchmarks",
        "MariaDB benchmark results",
        "Published benchmark runs and their measurements. Numbers are numbers in the "
        "row's unit; dates ISO 8601; an empty cell is the only missing value (a provenance "
        "field not recorded, or not stated by the cited source: see unstated). No figure "
        f"is withheld. Licence: {BENCHMARK_LICENCE}",
        resources,
        [
            {
                "name": "CC-BY-4.0",
                "path": "https://creativecommons.org/licenses/by/4.0/",
                "title": "CC BY 4.0",
            }
        ],
    )
    response = opendata.descriptor_response(descriptor)
    patch_cache_control(response, public=True, max_age=300)
    return response


def download_attachment(request, slug, pk):
    """A raw file: anyone's once its run is public; before, only its uploader's and the
    reviewers' (to anyone else a draft's file is as absent as a missing one)."""
    found = Attachment.objects.filter(pk=pk, suite__slug=slug)
    attachment = found.published().first()
    public = attachment is not None
    if not public:
        attachment = get_object_or_404(found.reviewable_by(request.user))
    name = attachment.file.name.rsplit("/", 1)[-1]
    response = FileResponse(
        attachment.file.open("rb"), as_attachment=True, filename=name, content_type="text/plain"
    )
    if not public:
        patch_cache_control(response, private=True, no_store=True)
    return response


# Contributors: personal tokens, their submissions and the web form.
MY_RUNS_SHOWN = 100


def _account_context(request, token_form=None, new_key=None):
    user = request.user
    return {
        "may_submit": permissions.may_submit(user),
        "tokens": SubmissionToken.objects.active().filter(user=user),
        "token_form": token_form or TokenForm(),
        "new_key": new_key,
        "submissions": list(Run.objects.submitted_by(user)[:MY_RUNS_SHOWN]),
        "shown": MY_RUNS_SHOWN,
        "suites": Suite.objects.published(),
        "upload_example_url": request.build_absolute_uri(
            reverse("benchmarks:upload", kwargs={"slug": "SUITE"})
        ),
    }


SUBMIT_CLIENT = "bench/submit_run.py"


def submit_client(request):
    """The submitter the token page tells people to run (bench/submit_run.py), as a file."""
    response = FileResponse(
        open(settings.BASE_DIR / SUBMIT_CLIENT, "rb"),  # noqa: SIM115 - FileResponse closes it
        as_attachment=True,
        filename="submit_run.py",
        content_type="text/x-python; charset=utf-8",
    )
    patch_cache_control(response, public=True, max_age=3600)
    return response


@login_required
def account(request):
    """The contributor's page: their API tokens and what they submitted, in its state."""
    return render(request, "benchmarks/account.html", _account_context(request))


@login_required
def create_token(request):
    if request.method != "POST":
        return redirect("benchmarks:account")
    form = TokenForm(request.POST)
    if not permissions.may_submit(request.user):
        form.add_error(None, "Verify your e-mail address first: tokens submit runs.")
    if not form.errors and form.is_valid():
        try:
            token, key = tokens.create_token(request.user, form.cleaned_data["name"])
        except tokens.TokenRefused as error:
            form.add_error("name", str(error))
        else:  # shown this once: only its hash is kept
            context = _account_context(request, new_key={"token": token, "key": key})
            response = render(request, "benchmarks/account.html", context)
            response["Cache-Control"] = "no-store"
            return response
    return render(
        request, "benchmarks/account.html", _account_context(request, token_form=form), status=400
    )


@login_required
def revoke_token(request, pk):
    if request.method != "POST":
        return redirect("benchmarks:account")
    if tokens.revoke_token(request.user, pk):
        messages.success(request, "The token is revoked: it no longer submits anything.")
    else:
        messages.error(request, "You have no such token (it may be revoked already).")
    return redirect("benchmarks:account")


@login_required
def submit(request, slug):
    """The web form: a run from a file, a draft until a reviewer publishes it."""
    suite = permissions.submittable_suite(request.user, slug)
    if suite is None:
        raise Http404("no such suite")
    template = "benchmarks/submit.html"
    if not permissions.may_submit(request.user):
        return render(request, template, {"suite": suite, "may_submit": False}, status=403)
    reviewed = not permissions.may_publish(request.user)
    if request.method == "POST" and importing.declared_size_too_large(request):
        form = RunUploadForm()  # refused by its declared size: the body is never read
        form.errors["file"] = form.error_class([importing.SIZE_MESSAGE])
    else:
        form = RunUploadForm(request.POST or None, request.FILES or None)
    context = {"suite": suite, "may_submit": True, "form": form, "reviewed": reviewed}
    if request.method != "POST":
        return render(request, template, context)
    if not form.is_valid():
        return render(request, template, context, status=400)
    if reviewed and (allowance := permissions.submission_allowance(request.user)).remaining == 0:
        wait = allowance.wait_for(1)
        if wait is None:  # a rate of nought: no wait lets a run in
            rate = settings.BENCHMARK_SUBMIT_RATE
            form.add_error("file", f"Not stored: an account may store no runs now ({rate}).")
            return render(request, template, context, status=400)
        return refuse(request, template, context, wait)
    data = dict(form.cleaned_data)
    upload = data.pop("file")
    try:
        run = importing.submit_run(
            suite=suite, raw=upload.read(), file_name=upload.name, user=request.user, **data
        )
    except importing.OverAllowance as error:
        form.add_error("file", f"Not stored: {error}")
        if error.wait is None:
            return render(request, template, context, status=400)
        return refuse(request, template, context, error.wait)
    except ImportFailed as error:
        form.add_error("file", f"Could not import: {error}")
        return render(request, template, context, status=400)
    state = (
        "published"
        if run.status == Run.Status.PUBLISHED
        else "a draft: it is public once a reviewer publishes it, and you get a mail then"
    )
    messages.success(request, f"Your run “{run.label}” is stored, {state}.")
    return redirect(reverse("benchmarks:account") + "#submissions")
