"""Issue 24 (deliver 3): hypothesis drives the benchmark upload API with hostile fields and
mutated real outputs. Whatever it sends, the answer is never a 5xx, a refusal is a 400
with a reason, and a refused upload changes nothing."""

import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from benchmarks.models import Attachment, Measurement, Run, Suite
from tests.benchmarks.helpers import DATA, OLTP_RW, OLTP_RW_PROVENANCE

pytestmark = pytest.mark.django_db
REAL_OUTPUTS = [
    OLTP_RW.read_bytes(),
    (DATA / "hyperfine-1.15-list.json").read_bytes(),
    (DATA / "jmh.json").read_bytes(),
    (DATA / "ycsb.txt").read_bytes(),
    (DATA / "group-commit.csv").read_bytes(),
]

short_texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
texts = (
    short_texts
    | st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=600)
    | st.sampled_from(["", "x" * 121, "1" * 500, "\x07bell", "tab\there"])
)
numbers = (
    st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([10**400, -(2**63), 2**53 + 1])
)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | texts,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=6,
)
tag_fields = st.one_of(
    st.just("{}"),
    st.dictionaries(short_texts, numbers | short_texts, min_size=1, max_size=2).map(json.dumps),
    st.dictionaries(texts, json_values, max_size=3).map(json.dumps),
    json_values.map(json.dumps),
    st.sampled_from(['{"threads": 1e309}', '{"a": "\\u0000"}', '{"a": "\\ud800"}', "{", ""]),
)


@st.composite
def raw_outputs(draw):
    """A real output, perhaps with one number swapped for a long run of digits, cut short,
    or with bytes spliced in; or text made up from scratch."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=400))
    raw = draw(st.sampled_from(REAL_OUTPUTS))
    # Whole outputs most often, so that the other fields are what decides.
    action = draw(st.sampled_from(["keep", "keep", "keep", "digits", "cut", "splice"]))
    if action == "digits":
        position = draw(st.integers(0, len(raw) - 1))
        while position < len(raw) and not chr(raw[position]).isdigit():
            position += 1
        digits = draw(st.integers(20, 500))
        return raw[:position] + b"9" * digits + raw[position:]
    if action == "cut":
        return raw[: draw(st.integers(0, len(raw)))]
    if action == "splice":
        position = draw(st.integers(0, len(raw)))
        return raw[:position] + draw(st.binary(max_size=40)) + raw[position:]
    return raw


uploads = st.fixed_dictionaries(
    {
        "label": short_texts.filter(str.strip) | texts,
        "importer": st.sampled_from(["", "", "", "sysbench", "jmh", "hyperfine", "ycsb", "table"]),
        "parameters": tag_fields,
        "variant": tag_fields,
        "unstated": st.sampled_from(["", "run_date", "source", "run_date,os"]),
        # Names a client can send at all (Django's own test client refuses "", "." and "..").
        "file_name": st.text(min_size=1, max_size=300).filter(
            lambda n: "\x00" not in n and os.path.basename(n) not in ("", ".", "..")
        ),
    },
    optional={
        "server_version": texts | st.just(OLTP_RW_PROVENANCE["server_version"]),
        "os": texts | st.just(OLTP_RW_PROVENANCE["os"]),
        "hardware": texts | st.just(OLTP_RW_PROVENANCE["hardware"]),
        "source": texts | st.just(OLTP_RW_PROVENANCE["source"]),
        "run_date": st.sampled_from(["", "2026-11-23", "0001-01-01", "9999-12-31", "2026-02-30"]),
    },
)


def _stored():
    return Run.objects.count(), Measurement.objects.count(), Attachment.objects.count()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(fields=uploads, raw=raw_outputs())
def test_the_upload_api_never_answers_5xx_and_a_refusal_changes_nothing(
    client, django_user_model, fields, raw
):
    user, _ = django_user_model.objects.get_or_create(
        username="fuzzing-contributor", defaults={"is_staff": True}
    )
    token, _ = Token.objects.get_or_create(user=user)
    Suite.objects.get_or_create(slug="fuzzed", defaults={"title": "Fuzzed", "is_published": True})
    name = fields.pop("file_name")
    before = _stored()
    response = client.post(
        "/api/benchmarks/fuzzed/runs/",
        {**fields, "file": SimpleUploadedFile(name, raw)},
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )
    assert response.status_code < 500
    if response.status_code == 201:
        run = Run.objects.get(pk=response.json()["run"])
        assert run.status == Run.Status.DRAFT  # no publish_run: it waits for review
    else:
        assert response.status_code == 400, response.content
        assert response.json()["error"]
        assert _stored() == before
