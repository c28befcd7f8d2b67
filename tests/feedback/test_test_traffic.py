"""Issue 60: a report labelled "staging db" counted as real although a test-traffic rule
names it. One rule (feedback.labels.label_key) compares labels wherever they are compared:
processing a new report, re-marking every report when staff change a rule, the endpoint's
check for MariaDB's own test suite; case and spacing (Unicode's spaces included) aside."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedback.labels import TEST_USER_INFO, label_key, names_test_traffic
from feedback.models import RawReport, Report, Server, TestTrafficRule
from feedback.parser import is_test_traffic
from feedback.services import processing
from feedback.trends.synthetic import server_uid

SPACES = " \u00a0\u2003\u3000"  # a space, a no-break space, an em space, an ideographic one


@st.composite
def spelled(draw, label: str, spaces: str = SPACES) -> str:
    """``label`` as a person might type it: any letter in either case, any run of spaces
    between its words and around them."""
    words = ["".join(c.upper() if draw(st.booleans()) else c for c in w) for w in label.split()]
    gaps = [draw(st.text(spaces, min_size=1, max_size=3)) for _ in words[1:]]
    middle = words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:], strict=True))
    return draw(st.text(spaces, max_size=2)) + middle + draw(st.text(spaces, max_size=2))


@given(label=spelled("staging db", spaces=SPACES + "\t\n"), rule=spelled("Staging DB"))
def test_a_label_is_the_rules_label_whatever_its_case_and_spacing(label, rule):
    assert names_test_traffic(label, {label_key(rule)})
    other = (
        label.replace("db", "dbx").replace("DB", "DBX").replace("dB", "dBX").replace("Db", "DbX")
    )
    assert not names_test_traffic(other, {label_key(rule)})
    assert not names_test_traffic(label + "x", {label_key(rule)})


@given(label=spelled(TEST_USER_INFO))
def test_mariadbs_own_test_suite_is_named_by_the_same_rule(label):
    assert is_test_traffic(label) and names_test_traffic(label, set())


def uid(number: int) -> str:
    return server_uid(number, salt="labels")


def full_report(number: int, label: str) -> str:
    return f"FEEDBACK_SERVER_UID\t{uid(number)}\nFEEDBACK_USER_INFO\t{label}\nVERSION\t11.4.2-MariaDB\n\n"


@pytest.mark.django_db
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(label=spelled("staging db"))
def test_a_report_a_rule_names_is_left_out_when_processed_and_after_every_re_marking(
    client, post_body, label
):
    TestTrafficRule.objects.get_or_create(
        kind=TestTrafficRule.Kind.LABEL, value="staging db", defaults={"note": "staging"}
    )
    try:
        assert post_body(full_report(1, label)).status_code == 200
        assert post_body(full_report(2, "production eu")).status_code == 200
        assert Report.objects.get(server__uid=uid(1)).is_test  # as processing stored it
        assert processing.apply_test_traffic_rules() == (0, 0)  # a rule change agrees
        assert Report.objects.get(server__uid=uid(1)).is_test
        assert not Report.objects.get(server__uid=uid(2)).is_test
        assert client.get("/api/feedback/summary").json()["servers"] == 1
    finally:
        Report.objects.all().delete()
        Server.objects.all().delete()
        RawReport.objects.all().delete()
