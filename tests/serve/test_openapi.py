"""The API property-tested from its own OpenAPI document (schemathesis, over a real socket):
whatever a generated request holds, the service never answers 5xx, and every answer
conforms to the document. One check is left out: a schema-valid score body may still be
refused (an unknown task, a trace that does not replay), which a schema cannot express."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import settings
from schemathesis import BaseSchema, Case
from schemathesis.checks import positive_data_acceptance

from tests.serve.conftest import Live


@pytest.fixture
def api_schema(live: Live) -> BaseSchema:
    return schemathesis.openapi.from_url(f"{live.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=60, deadline=None)
def test_api__no_generated_request_answers_5xx(case: Case) -> None:
    response = case.call(timeout=60)
    assert response.status_code < 500, (response.status_code, response.text[:300])
    case.validate_response(response, excluded_checks=[positive_data_acceptance])
