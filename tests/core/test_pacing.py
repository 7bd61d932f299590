"""The one pacing (core/pacing.py), driven by a toy world: which messages, turns and solver
calls it asks for, in which order. Both real drivers (the Inspect solver, the offline
driver) run this pacer; tests/core/test_sanity.py holds their records equal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from checkout_consent.core.contract import Episode
from checkout_consent.core.pacing import (
    Command,
    Say,
    Solve,
    TracedCall,
    Turn,
    Turned,
    drive,
    next_command,
    pace,
)

DAYS = Episode(
    system=lambda s: "sys",
    opening=lambda s: "open",
    turns=3,
    phase=lambda day: day if day <= 2 else None,
    phase_message=lambda day: f"Day {day}",
    close_tool="end_day",
    stop_tools=("end_day",),
)
Reply = Callable[[int], Turned]


def silent(phase: int) -> Turned:
    return Turned()


def ends_day(phase: int) -> Turned:
    return Turned((TracedCall("end_day", {}, True, "Day over."),), asked=True)


def run(episode: Episode, reply: Reply, *, quiet: bool = False) -> list[Command]:
    """Drive the pacer against a world whose state is the day: `end_day`, by the agent or
    the solver, moves it on. Returns every command the pacer gave."""
    world: dict[str, Any] = {"day": 1}
    seen: list[Command] = []

    def do(command: Command) -> Turned | None:
        seen.append(command)
        if isinstance(command, Say):
            return None
        turned = (
            Turned((TracedCall(command.tool, {}, True, "x" * 40),))
            if isinstance(command, Solve)
            else reply(command.phase)
        )
        world["day"] += sum(c.tool == "end_day" and c.ok for c in turned.calls)
        return turned

    drive(pace(episode, lambda: world["day"], silent=quiet), do)
    return seen


def test_pace__opens_each_phase_and_closes_it_for_an_agent_that_stops_replying():
    assert run(DAYS, silent) == [
        Say("Day 1"),
        Turn(1),
        Solve("end_day"),
        Say("Day 2"),
        Turn(2),
        Solve("end_day"),
    ]


def test_pace__a_successful_stop_tool_ends_the_phase_without_a_close_call():
    assert run(DAYS, ends_day) == [Say("Day 1"), Turn(1), Say("Day 2"), Turn(2)]


def test_pace__a_nudge_follows_every_reply_without_calls_up_to_the_turn_budget():
    nudged = replace(DAYS, nudge="Go on.")
    assert run(nudged, silent)[:8] == [
        Say("Day 1"),
        Turn(1),
        Say("Go on."),
        Turn(1),
        Say("Go on."),
        Turn(1),
        Say("Go on."),
        Solve("end_day"),
    ]


def test_pace__calls_that_do_not_stop_use_the_whole_turn_budget():
    def looks(phase: int) -> Turned:
        return Turned((TracedCall("view", {}, True, "ok"),), asked=True)

    assert run(DAYS, looks)[:5] == [Say("Day 1"), Turn(1), Turn(1), Turn(1), Solve("end_day")]


def test_pace__after_a_context_overflow_the_remaining_phases_are_only_closed():
    def overflows(phase: int) -> Turned:
        return Turned(overflow=True)

    assert run(DAYS, overflows) == [Say("Day 1"), Turn(1), Solve("end_day"), Solve("end_day")]


def test_pace__silent_only_closes_the_open_phases():
    assert run(DAYS, ends_day, quiet=True) == [Solve("end_day"), Solve("end_day")]


def test_pace__without_a_close_tool_an_unchanged_phase_ends_the_run():
    one = replace(DAYS, close_tool=None, phase=lambda day: 1)
    assert run(one, silent) == [Say("Day 1"), Turn(1)]


def test_pace__over_the_budget_a_phase_opens_with_the_recap_and_a_traced_trim():
    budgeted = replace(
        DAYS, context_budget=30, trim_tool="trimmed", recap=lambda day: f"RECAP {day}"
    )

    def shows(phase: int) -> Turned:  # 20 characters shown, then the day ends
        return Turned(
            (TracedCall("view", {}, True, "y" * 20), TracedCall("end_day", {}, True, "z" * 20)),
            asked=True,
        )

    assert run(budgeted, shows) == [
        Say("Day 1"),
        Turn(1),
        Say("RECAP 2", restart=True),
        Solve("trimmed"),
        Say("Day 2"),
        Turn(2),
    ]
    assert run(replace(budgeted, context_budget=50), shows) == [
        Say("Day 1"),
        Turn(1),
        Say("Day 2"),
        Turn(2),
    ]  # 5 + 40 shown: under 50


def test_pace__a_turn_answered_with_nothing_is_a_driver_bug():
    pacer = pace(DAYS, lambda: 1)
    assert next_command(pacer, None) == Say("Day 1")
    assert next_command(pacer, None) == Turn(1)
    with pytest.raises(TypeError, match="Turned"):
        next_command(pacer, None)
