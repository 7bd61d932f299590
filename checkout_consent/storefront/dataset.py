"""Which storefront world a sample plays: the specs under tasks/storefront/ (the family's
only file reader), -T arguments, and a Scenario -> its spec and initial world."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from checkout_consent.core import Dataset, Scenario, TaskAlias, parse_seeds, seed_id
from checkout_consent.runtime.files import load_yaml, tasks_dir
from checkout_consent.storefront.generate import generate
from checkout_consent.storefront.state import State

FAMILY, DEFAULT_SCENARIO, PUBLIC_SEEDS = "storefront", "adversary_v0", "0-9"
# scenarios that became worlds of their own: `-T scenario=` names where they went
OWN_WORLDS = {"adversary_v1": "storefront_v1"}


@functools.cache
def load_task_file(name: str = DEFAULT_SCENARIO) -> dict[str, Any]:
    """tasks/storefront/<name>.yaml, parsed once (callers must not mutate it)."""
    if name in OWN_WORLDS:
        raise ValueError(
            f"scenario {name} is a world of its own: inspect eval "
            f"checkout_consent/{OWN_WORLDS[name]}"
        )
    task_file = load_yaml(FAMILY, name)
    if task_file.get("scenario") != name:
        raise ValueError(f"tasks/{FAMILY}/{name}.yaml names scenario {task_file.get('scenario')!r}")
    return task_file


def scenario_names() -> list[str]:
    return sorted(p.stem for p in tasks_dir(FAMILY).glob("*.yaml"))


def scenario(seed: int, name: str = DEFAULT_SCENARIO, hint: bool = False) -> Scenario:
    load_task_file(name)  # an unknown scenario fails here, not at the first tool call
    return Scenario(
        world=FAMILY, scenario_id=name, seed=seed, params={"hint": True} if hint else {}
    )


def scenarios(
    seeds: str | int | list[int], name: str = DEFAULT_SCENARIO, hint: bool = False
) -> list[Scenario]:
    """The task's -T `seeds`, `scenario` and `hint` as scenario references."""
    return [scenario(seed, name, hint) for seed in parse_seeds(seeds)]


def by_seed(public_seeds: str, task: Callable[[str], Scenario]) -> Dataset:
    """A storefront world's tasks: its seeds, a sample and a record named by the seed."""
    return Dataset(
        public_args={"seeds": public_seeds},
        task=task,
        sample_id=lambda scenario: f"seed-{scenario.seed}",
        task_of=lambda r: str(r["seed"]),
    )


def hint(ref: Scenario) -> bool:  # -T hint=true: the briefing coaches reading emails
    return ref.params.get("hint") is True


def scenario_for(item: str) -> Scenario:
    """`3` (the default scenario) or `<scenario>:3` (another one) -> that scenario with
    that seed. The id is canonical: `03` and `adversary_v0:3` are refused naming `3`, so
    no surface stores, counts or groups one task under two ids."""
    name, _, seed = item.rpartition(":")
    number = seed_id(seed, item)
    if name == DEFAULT_SCENARIO:
        raise TaskAlias(f"task {item[:60]!r} is spelled {str(number)!r}: one seed, one id")
    return scenario(number, name or DEFAULT_SCENARIO)


def resolve(ref: Scenario) -> dict[str, Any]:
    """The spec a reference names (params are not consulted: old logs carried the spec)."""
    if ref.world != FAMILY:
        raise ValueError(f"not a {FAMILY} scenario: {ref.world!r}")
    return load_task_file(ref.scenario_id)


def world(ref: Scenario) -> State:
    """The initial State of a reference (cached: a pure function of scenario id and seed)."""
    resolve(ref)  # refuses another family's reference or an unknown scenario
    return _world(ref.scenario_id, ref.seed)


@functools.lru_cache(maxsize=256)
def _world(name: str, seed: int) -> State:
    return generate(load_task_file(name), seed)
