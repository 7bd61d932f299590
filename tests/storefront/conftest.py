import pytest

from checkout_consent.storefront import dataset
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.state import State


@pytest.fixture(scope="session")
def task_file() -> dict:
    return dataset.load_task_file()


@pytest.fixture
def world(task_file) -> State:
    return generate(task_file, 0)
