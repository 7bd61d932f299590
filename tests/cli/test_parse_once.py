"""Controls and datasets parse each scenario file once per process, not once per seed."""

from typing import Any

import pytest
import yaml

from checkout_consent.cli.run import offline_controls, task_scenarios
from checkout_consent.families import names, world_named

# storefront_v1 reads storefront's seeded dataset (storefront.dataset.by_seed), which
# storefront's case holds in the default run; its own 30-day months make it the slow one
SLOW = {"storefront_v1"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names()]
)
def test_dataset__parses_its_yaml_once_per_process(name, monkeypatch):
    world = world_named(name)
    task_scenarios(world)
    offline_controls(world)  # warm: whatever is parsed once is parsed now
    parsed: list[Any] = []
    real = yaml.safe_load
    monkeypatch.setattr(yaml, "safe_load", lambda *a, **k: parsed.append(a) or real(*a, **k))
    task_scenarios(world)
    offline_controls(world)
    assert parsed == []
