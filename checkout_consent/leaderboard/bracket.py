"""Where a board row stands against its world's idle and reference controls, each played
offline on the row's own tasks: "at idle" (never ranked), or its share of the way from
idle to reference in the headline's direction (docs/leaderboard.md, "The board")."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from checkout_consent.core.headline import Record
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.families import world_named
from checkout_consent.leaderboard.expected import public_samples

HEADING = "vs controls (idle → reference)"


class Bracket(NamedTuple):
    """The idle and reference controls' headline over a row's tasks."""

    idle: float
    reference: float


@functools.cache
def control_runs(name: str, control: str) -> dict[str, Record]:
    """Sample id -> the control's record on the world's public set, played offline once."""
    world = world_named(name)
    return {
        sample: play_and_grade(world, Scenario.model_validate(ref), world.controls[control])
        for sample, ref in public_samples(name).items()
    }


def bracket(name: str, samples: Iterable[str]) -> Bracket | None:
    """The controls' headline over the row's samples; None when the public set lacks any."""
    world, ids = world_named(name), sorted(set(samples))
    idle = control_runs(name, world.controls.idle)
    reference = control_runs(name, world.controls.reference)
    if not ids or any(i not in idle for i in ids):
        return None
    low = world.headline.figure([(i, idle[i]) for i in ids])
    high = world.headline.figure([(i, reference[i]) for i in ids])
    return None if low is None or high is None else Bracket(low.value, high.value)


def at_idle(name: str, value: float, got: Bracket | None) -> bool:
    """Whether `value` is no better than the idle control's figure, as the board prints both."""
    if got is None:
        return False
    head = world_named(name).headline
    if head.show(value) == head.show(got.idle):
        return True
    return (value < got.idle) == head.higher_is_better


def standing(name: str, value: float, got: Bracket | None) -> str:
    """The row's place against the bracket: `at idle`, `below idle`, `62% idle → ref.`,
    `at reference`, `above reference` (— without a bracket, or one of zero width)."""
    head = world_named(name).headline
    if got is None or head.show(got.idle) == head.show(got.reference):
        return "—"
    if head.show(value) == head.show(got.idle):
        return "at idle"
    if head.show(value) == head.show(got.reference):
        return "at reference"
    share = (value - got.idle) / (got.reference - got.idle)
    if share < 0:
        return "below idle"
    if share > 1:
        return "above reference"
    return f"{share:.0%} of the way"
