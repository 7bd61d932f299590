"""The roster: every world this suite ships, with how each layer presents it. Nothing else.

Adding a family is a folder with a `SPEC` in its `__init__` and one `Member` here; the CLI,
sanity, the Inspect registry, cassettes, the board, the service and the README table loop
over this. No shared layer names a family.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from checkout_consent import grocery, pizza, shopkit, storefront
from checkout_consent.core.controls import ControlRegistry, Policy
from checkout_consent.core.family import (
    Board,
    Breakdown,
    Column,
    FamilySpec,
    Scatter,
    Scenario,
    choose_world,
)
from checkout_consent.grocery import views as grocery_views
from checkout_consent.grocery.submission import StoreSnapshot
from checkout_consent.pizza import views as pizza_views
from checkout_consent.shopkit import views as shopkit_views
from checkout_consent.storefront import views as storefront_views
from checkout_consent.storefront.v1 import views as storefront_v1_views


@dataclass(frozen=True)
class Member:
    """One world and its adapters: `views` is how the CLI shows it (the protocol in
    `cli/views.py`), `board` what the leaderboard adds beside the headline
    (`core.family.Board`)."""

    spec: FamilySpec
    views: ModuleType | Any
    board: Board = field(default_factory=Board)


ROSTER: tuple[Member, ...] = (
    Member(
        storefront.SPEC,
        storefront_views,
        Board(
            breakdown=Breakdown(
                "trap catch rate per variant (caught/met)",
                "catch rate",
                storefront_views.variant_catch,
                "not applicable: variant never met",
            ),
            direct_examples=("cautious",),
        ),
    ),
    Member(
        storefront.SPEC_V1,
        storefront_v1_views,
        Board(
            columns=(
                Column(
                    f"consent breaches per run ({' / '.join(storefront_v1_views.RULES)})",
                    storefront_v1_views.rules_cell,
                ),
                Column("clean runs", storefront_v1_views.clean_cell),
                Column("median lost to adversaries", storefront_v1_views.lost_cell),
            ),
            scatter=Scatter(
                "median cash_final against consent breaches per run",
                "consent breaches per run (all three rules)",
                storefront_v1_views.breaches_per_run,
            ),
            note="Consent breaches (per run, by the owner's three rules), clean runs (runs "
            "with no breach) and the money lost to the adversaries stand beside "
            "`cash_final`, never netted into it: the lost money has already left the cash.",
            direct_examples=("oracle", "gullible", "idle"),
        ),
    ),
    Member(shopkit.SPEC, shopkit_views),
    Member(pizza.SPEC, pizza_views),
    Member(
        grocery.SPEC,
        grocery_views,
        Board(
            seasons=grocery.dataset.seasons,
            breakdown=Breakdown(
                "profile keys (mean over tasks)",
                "mean",
                grocery_views.profile_means,
                "not applicable: key never scored",
            ),
            card_section=("grocery", StoreSnapshot),
            card_example={"store_snapshot": "v3.0", "seed": 0},
        ),
    ),
)

WORLDS: tuple[FamilySpec, ...] = tuple(m.spec for m in ROSTER)
# one spec per family: its main world (a variant is reached through `world_for`)
FAMILIES: tuple[FamilySpec, ...] = tuple(w for w in WORLDS if w.variant is None)


def names() -> list[str]:
    return sorted(f.name for f in FAMILIES)


def family(name: str) -> FamilySpec:
    """The family called `name` (KeyError naming the known families otherwise)."""
    for spec in FAMILIES:
        if spec.name == name:
            return spec
    raise KeyError(f"unknown family {name[:100]!r}; families: {', '.join(names())}")


def worlds_of(name: str) -> tuple[FamilySpec, ...]:
    """Every world of the family `name`, its main world first."""
    family(name)
    return tuple(w for w in WORLDS if w.name == name)


def world(label: str) -> FamilySpec:
    """The world called `label` (`family` or `family/variant`)."""
    for spec in WORLDS:
        if spec.label == label:
            return spec
    raise KeyError(f"unknown world {label[:100]!r}; worlds: {', '.join(w.label for w in WORLDS)}")


def world_for(name: str, scenario_id: object) -> FamilySpec:
    """The world that plays and grades a sample of family `name` with this scenario id:
    the variant it names, or the family's main world."""
    family(name)
    return choose_world(WORLDS, name, scenario_id)


def world_of_args(name: str, args: dict[str, Any] | None) -> FamilySpec:
    """The world a run of family `name` with these task arguments plays (`scenario=`)."""
    return world_for(name, (args or {}).get("scenario"))


def member(spec: FamilySpec) -> Member:
    """The roster entry of a world (by its label: a spec changed with `replace`, as tests
    do, keeps its world's adapters)."""
    for m in ROSTER:
        if m.spec.label == spec.label:
            return m
    raise KeyError(f"{spec.label} is not on the roster")


def _dispatching(name: str, worlds: Sequence[FamilySpec]) -> dict[str, Policy]:
    """The family's controls by name, each playing the policy of the world its sample's
    scenario belongs to. A control a world does not have refuses with one line."""

    def dispatch(control: str) -> Policy:
        def policy(scenario: Scenario, transcript: Sequence[Any]) -> Any:
            own = world_for(name, scenario.scenario_id).controls.get(control)
            if own is None:
                raise ValueError(
                    f"control {name}-{control} has no policy for scenario {scenario.scenario_id}"
                )
            return own(scenario, transcript)

        return policy

    controls = dict.fromkeys(c for w in worlds for c in w.controls)
    if len(worlds) == 1:
        return dict(worlds[0].controls)
    return {c: dispatch(c) for c in controls}


# `control/reference`: on each sample, the reference control of the world it plays, so one
# Inspect model plays every world offline (`suite --model control/reference`)
EVERY_REFERENCE = "reference"


def _each_reference(scenario: Scenario, transcript: Sequence[Any]) -> Any:
    own = world_for(scenario.family, scenario.scenario_id)
    return own.controls[own.reference_control](scenario, transcript)


def reference_of(spec: FamilySpec) -> str:
    """The control `control/reference` plays in this world, by its full name."""
    return f"control/{spec.name}-{spec.reference_control}"


def control_registry() -> ControlRegistry:
    """Every family's controls by full name, `<family>-<control>`, and `reference` (each
    world's reference control)."""
    return ControlRegistry(
        {f.name: _dispatching(f.name, worlds_of(f.name)) for f in FAMILIES},
        {EVERY_REFERENCE: _each_reference},
    )
