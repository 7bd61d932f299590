"""Two controls that bracket the score: the exact payment and a dollar over."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.coinjar.dataset import INVOICES
from checkout_consent.core.controls import Msg, Policy, Reply, call, next_call_id, say
from checkout_consent.core.family import ControlRecords, Scenario


def _paying(extra_cents: int) -> Policy:
    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        if next_call_id(transcript) > 0:
            return say("done")
        owed = INVOICES[scenario.scenario_id] + extra_cents
        return call("pay", amount=f"{owed // 100}.{owed % 100:02d}")

    return policy


CONTROLS = {"exact": _paying(0), "over": _paying(100)}


def check_sanity(records: ControlRecords) -> list[str]:
    exact = [r["score"] for r in records["exact"]]
    over = [r["score"] for r in records["over"]]
    return [] if min(exact) == 1.0 and max(over) == 0.0 else ["controls do not bracket"]
