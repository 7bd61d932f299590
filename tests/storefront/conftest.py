import pytest

from checkout_consent.storefront import dataset
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.state import State


@pytest.fixture(scope="session")
def spec() -> dict:
    return dataset.load_spec()


@pytest.fixture
def world(spec) -> State:
    return generate(spec, 0)
