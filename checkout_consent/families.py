"""The roster: every world this suite ships, one line each. Every surface loops over it; no
shared layer names a world, and the roster imports no layer that presents one."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from checkout_consent.core.contract import World
from checkout_consent.core.controls import ControlRegistry, Msg, Policy, Reply
from checkout_consent.core.scenario import Scenario

# one line per world: its folder under checkout_consent/, in the order surfaces list them
ROSTER = (
    "storefront",
    "storefront_v1",
    "shopkit",
    "pizza",
    "grocery",
)


def _load(name: str) -> World:
    """The `WORLD` of `checkout_consent.<name>` (its `__init__`), checked to be one."""
    got = getattr(importlib.import_module(f"checkout_consent.{name}"), "WORLD", None)
    if not isinstance(got, World) or got.name != name:
        raise TypeError(f"checkout_consent.{name} has no WORLD named {name!r}")
    return got


WORLDS: tuple[World, ...] = tuple(_load(name) for name in ROSTER)


def names() -> list[str]:
    return sorted(w.name for w in WORLDS)


def world_named(name: str) -> World:
    """The world called `name` (KeyError naming the known worlds otherwise)."""
    for world in WORLDS:
        if world.name == name:
            return world
    raise KeyError(f"unknown world {name[:100]!r}; worlds: {', '.join(names())}")


# `control/reference`: on each sample, the reference control of the world it plays, so one
# Inspect model plays every world offline (`suite --model control/reference`)
EVERY_REFERENCE = "reference"


def _each_reference(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
    own = world_named(scenario.world)
    return own.controls[own.controls.reference](scenario, transcript)


def reference_of(world: World) -> str:
    """The control `control/reference` plays in this world, by its full name."""
    return f"control/{world.family}-{world.controls.reference}"


def _played_in_its_world(family: str, control: str) -> Policy:
    """Control `<family>-<control>`: that policy of the world the sample plays (one the world
    lacks refuses in one line)."""

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        own = world_named(scenario.world)
        if own.family != family or control not in own.controls:
            raise ValueError(f"control {family}-{control} has no policy in {own.name}")
        return own.controls[control](scenario, transcript)

    return policy


def control_registry() -> ControlRegistry:
    """Every world's controls by full name, `<family>-<control>`, and `reference`."""
    families: dict[str, dict[str, Policy]] = {}
    for w in WORLDS:
        for control in w.controls:
            families.setdefault(w.family, {})[control] = _played_in_its_world(w.family, control)
    return ControlRegistry(families, {EVERY_REFERENCE: _each_reference}, _of_world)


def _of_world(name: str) -> tuple[str, tuple[str, ...]]:
    own = world_named(name)
    return own.family, tuple(own.controls)
