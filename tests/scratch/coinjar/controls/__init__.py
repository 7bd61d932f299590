"""The controls that bracket the score: the exact payment, a dollar over, and the idle one
that pays nothing."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.coinjar.dataset import INVOICES
from checkout_consent.core import (
    ControlRecords,
    Msg,
    Policy,
    Reply,
    Scenario,
    call,
    next_call_id,
    say,
)


def _paying(extra_cents: int) -> Policy:
    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        if next_call_id(transcript) > 0:
            return say("done")
        owed = INVOICES[scenario.scenario_id] + extra_cents
        return call("pay", amount=f"{owed // 100}.{owed % 100:02d}")

    return policy


def _idle(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
    return say("done")


CONTROLS = {"exact": _paying(0), "over": _paying(100), "idle": _idle}


def check_sanity(records: ControlRecords) -> list[str]:
    exact = [r["score"] for r in records["exact"]]
    over = [r["score"] for r in records["over"]]
    return [] if min(exact) == 1.0 and max(over) == 0.0 else ["controls do not bracket"]
