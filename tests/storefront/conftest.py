import pytest

from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.spec import load_spec, scenario
from checkout_consent.storefront.state import State


@pytest.fixture(scope="session")
def spec() -> dict:
    return load_spec()


@pytest.fixture
def world(spec) -> State:
    return generate(scenario(0, spec))
