"""Scripted v1 controls: idle, gullible, cautious (controls/plans.py) and the oracle, the
proven bound (controls/oracle.py). Each replays its plan simulated on the world of the
scenario reference, reading only the "Day N of M." line of the prompt (controls/script.py)."""

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
