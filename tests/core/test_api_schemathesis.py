"""schemathesis fuzzes every operation the OpenAPI schema (/api/schema/) lists: none
may answer 500, whatever the path, query or body it is sent."""

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error

from tests.releases.factories import ReleaseFactory, SeriesFactory


@pytest.fixture
def api_schema(db):
    SeriesFactory(version="11.4")
    ReleaseFactory(version="11.4.4", is_published=True)
    # Like Django's test client: keep the test's transaction open across requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


HOSTILE_PATH_VALUES = ["\x00", "11.4\x00", "9" * 40, "x" * 3000, "\u202e%ff"]
FUZZ = hypothesis_settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_no_api_operation_answers_500(api_schema):
    # One hypothesis run per operation (schemathesis' own pytest loader does not
    # support pytest 9 yet, so the operations are walked here).
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert any(op.path == "/api/releases/{series}/" for op in operations)
    for operation in operations:

        @FUZZ
        @given(case=operation.as_strategy())
        def call(case):
            response = case.call()
            case.validate_response(response, checks=[not_a_server_error])

        call()
        # Values hypothesis reaches only by luck, tried every time in every path parameter.
        names = [p.name for p in operation.path_parameters] if operation.path_parameters else []
        for name in names:
            for value in HOSTILE_PATH_VALUES:
                parameters = dict.fromkeys(names, "11.4") | {name: value}
                case = operation.Case(path_parameters=parameters)
                case.validate_response(case.call(), checks=[not_a_server_error])
