"""/api/schema/ checks its query parameters: ``?version=%0D%0A`` was a 500 (the version
went into the Content-Disposition header); now any value is a schema or a 400 with a
reason."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db


def test_a_line_break_in_the_version_is_a_400_with_a_reason(client):
    response = client.get("/api/schema/?version=%0D%0A")
    assert response.status_code == 400
    assert "version must be 1 to 32 letters" in response.content.decode()


def test_an_unknown_language_is_a_400(client):
    response = client.get("/api/schema/", {"lang": "xx\r\nSet-Cookie: a=b"})
    assert response.status_code == 400
    assert "lang must be one of" in response.content.decode()


def test_a_plain_version_still_gets_the_schema(client):
    response = client.get("/api/schema/", {"version": "1.0.0", "format": "json"})
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "MariaDB Foundation portal API"
    assert response["Content-Disposition"] == (
        'inline; filename="MariaDB Foundation portal API (1.0.0).json"'
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(version=st.text(max_size=40), lang=st.one_of(st.none(), st.text(max_size=12)))
def test_any_parameters_are_a_schema_or_a_reason(client, version, lang):
    parameters = {"version": version, **({"lang": lang} if lang is not None else {})}
    response = client.get("/api/schema/", parameters)
    assert response.status_code in (200, 400), (parameters, response.status_code)
    if response.status_code == 400:
        assert b"must be" in response.content or b"NUL byte" in response.content
