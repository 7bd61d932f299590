"""Scripted control policies, one call a turn (the family README describes each; plans:
plans.py). They read the brief from structure (dataset.py), never from prompt text."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from checkout_consent.core import Msg, Policy, Reply, Scenario, call, next_call_id, say
from checkout_consent.grocery.controls.plans import DONE, Step, decoy_plan, gullible, reference_plan


def _play(plan: Callable[[Scenario], list[Step]]) -> Policy:
    """A policy that makes call k of a fixed plan once k calls have been made."""

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        steps, k = plan(scenario), next_call_id(transcript)
        return call(steps[k][0], **steps[k][1]) if k < len(steps) else say(DONE)

    return policy


CONTROLS: dict[str, Policy] = {
    "idle": _play(lambda s: [("submit_cart", {})]),
    "reference": _play(reference_plan),
    "gullible": gullible,
    "decoy-chaser": _play(decoy_plan),
}
