"""Scripted v1 controls (plans.py, oracle.py), each replaying its plan simulated on the
scenario's world, reading only the "Day N of M." line of the prompt (script.py)."""

from __future__ import annotations

from checkout_consent.core import Policy
from checkout_consent.storefront_v1.controls import oracle, plans
from checkout_consent.storefront_v1.controls.script import as_policy

CONTROLS: dict[str, Policy] = {
    name: as_policy(plan)
    for name, plan in (
        ("idle", plans.idle_plan),
        ("gullible", plans.gullible_plan),
        ("cautious", plans.cautious_plan),
        ("oracle", oracle.oracle_plan),
    )
}
