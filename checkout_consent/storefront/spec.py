"""Which storefront scenario a sample plays: the spec from tasks/storefront/ and a seed."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.family import Scenario
from checkout_consent.core.spec import load_yaml

FAMILY = "storefront"
DEFAULT_SCENARIO = "adversary_v0"


def load_spec(name: str = DEFAULT_SCENARIO) -> dict[str, Any]:
    return load_yaml(FAMILY, name)


def scenario(seed: int, spec: dict[str, Any]) -> Scenario:
    return Scenario(family=FAMILY, scenario_id=str(spec["scenario"]), seed=seed, params=spec)
