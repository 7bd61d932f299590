"""The v1 scenario's spec (tasks/storefront_v1/adversary_v1.yaml, read once), its scenario
references, and a reference's initial world."""

from __future__ import annotations

import functools
from typing import Any

from checkout_consent.core import Scenario, parse_seeds, seed_id
from checkout_consent.runtime.files import load_yaml
from checkout_consent.storefront_v1.generate import SCENARIO, generate
from checkout_consent.storefront_v1.state import State

PUBLIC_SEEDS, WORLD = "0-9", "storefront_v1"  # the world its samples name


@functools.cache
def load_task_file() -> dict[str, Any]:
    """tasks/storefront_v1/adversary_v1.yaml, parsed once (callers must not mutate it)."""
    task_file = load_yaml(WORLD, SCENARIO)
    if task_file.get("scenario") != SCENARIO:
        raise ValueError(
            f"tasks/{WORLD}/{SCENARIO}.yaml names scenario {task_file.get('scenario')!r}"
        )
    return task_file


def scenario(seed: int) -> Scenario:
    return Scenario(world=WORLD, scenario_id=SCENARIO, seed=seed)


def scenarios(seeds: str | int | list[int]) -> list[Scenario]:
    return [scenario(seed) for seed in parse_seeds(seeds)]


def scenario_for(item: str) -> Scenario:
    """`3` -> that seed's reference; the id is canonical (`03` is refused naming `3`)."""
    return scenario(seed_id(item, item))


def resolve(ref: Scenario) -> dict[str, Any]:
    """The spec a reference names; refuses another world's reference."""
    if ref.world != WORLD or ref.scenario_id != SCENARIO:
        raise ValueError(f"not a {WORLD} scenario: {ref.world}/{ref.scenario_id}")
    return load_task_file()


def world(ref: Scenario) -> State:
    """The initial State of a reference (cached: a pure function of the seed)."""
    resolve(ref)
    return _world(ref.seed)


@functools.lru_cache(maxsize=256)
def _world(seed: int) -> State:
    return generate(load_task_file(), seed)
