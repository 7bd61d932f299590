"""The v1 scenario's spec (tasks/storefront/adversary_v1.yaml, read once), its scenario
references, and a reference's initial world."""

from __future__ import annotations

import functools
from typing import Any

from checkout_consent.core.family import Scenario
from checkout_consent.core.spec import parse_seeds
from checkout_consent.runtime.files import load_yaml
from checkout_consent.storefront.v1.generate import FAMILY, SCENARIO, generate
from checkout_consent.storefront.v1.state import State

PUBLIC_SEEDS = "0-9"


@functools.cache
def load_spec() -> dict[str, Any]:
    """tasks/storefront/adversary_v1.yaml, parsed once (callers must not mutate it)."""
    spec = load_yaml(FAMILY, SCENARIO)
    if spec.get("scenario") != SCENARIO:
        raise ValueError(f"tasks/{FAMILY}/{SCENARIO}.yaml names scenario {spec.get('scenario')!r}")
    return spec


def scenario(seed: int) -> Scenario:
    return Scenario(family=FAMILY, scenario_id=SCENARIO, seed=seed)


def scenarios(seeds: str | int | list[int]) -> list[Scenario]:
    return [scenario(seed) for seed in parse_seeds(seeds)]


def scenario_for(item: str) -> Scenario:
    """`3` or `adversary_v1:3` -> that seed's reference."""
    name, _, seed = item.rpartition(":")
    if name not in ("", SCENARIO) or not seed.lstrip("-").isdigit():
        raise ValueError(f"expected a seed or {SCENARIO}:<seed>, got {item!r}")
    return scenario(int(seed))


def resolve(ref: Scenario) -> dict[str, Any]:
    """The spec a reference names; refuses another family's or scenario's reference."""
    if ref.family != FAMILY or ref.scenario_id != SCENARIO:
        raise ValueError(f"not a {FAMILY} {SCENARIO} scenario: {ref.family}/{ref.scenario_id}")
    return load_spec()


def world(ref: Scenario) -> State:
    """The initial State of a reference (cached: a pure function of the seed)."""
    resolve(ref)
    return _world(ref.seed)


@functools.lru_cache(maxsize=256)
def _world(seed: int) -> State:
    return generate(load_spec(), seed)
