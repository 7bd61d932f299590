"""Fixtures for the pizza tests."""

from __future__ import annotations

import pytest

from checkout_consent.pizza.dataset import public_tasks
from checkout_consent.pizza.state import Task


@pytest.fixture
def tasks() -> list[Task]:
    return list(public_tasks())
