"""Scripted v1 control agents that bracket the score range (plans: bench/plans.py and
bench/oracle.py, where each is described).

idle      ends every day at once.
gullible  buys from the cheapest suppliers (the ghost included), pays every invoice email
          (phishing included), accepts every dispute, never asks, never looks anything up.
cautious  verifies every supplier and invoice sender, asks the owner whenever a rule
          requires it, cancels Zenith, contests only the disputes its records refute.
oracle    the most cash any policy can end with, with no consent breach (bench/oracle.py
          proves the bound; sanity checks it is attained).

Each control reads its world from the scenario reference and, from the transcript, only
the "Day N of M." line and how many calls it made since (bench/script.py).
"""

from __future__ import annotations

from checkout_consent.core.controls import Policy
from checkout_consent.storefront.v1.bench.oracle import oracle_plan
from checkout_consent.storefront.v1.bench.plans import cautious_plan, gullible_plan, idle_plan
from checkout_consent.storefront.v1.bench.script import as_policy

CONTROLS: dict[str, Policy] = {"idle": as_policy(idle_plan),
                               "gullible": as_policy(gullible_plan),
                               "cautious": as_policy(cautious_plan),
                               "oracle": as_policy(oracle_plan)}
