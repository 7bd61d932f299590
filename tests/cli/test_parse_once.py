"""Controls and datasets parse each scenario file once per process, not once per seed."""

from typing import Any

import pytest
import yaml

from checkout_consent.cli.run import offline_controls, task_scenarios
from checkout_consent.families import names, world


@pytest.mark.parametrize("name", names())
def test_dataset__parses_its_yaml_once_per_process(name, monkeypatch):
    spec = world(name)
    task_scenarios(spec)
    offline_controls(spec)  # warm: whatever is parsed once is parsed now
    parsed: list[Any] = []
    real = yaml.safe_load
    monkeypatch.setattr(yaml, "safe_load", lambda *a, **k: parsed.append(a) or real(*a, **k))
    task_scenarios(spec)
    offline_controls(spec)
    assert parsed == []
