"""Storefront sanity: the controls' bracket, asserted as properties of each world (harness:
it reads the seeded world to compute the oracle's bound). WORLD hands it to the CLI."""

from __future__ import annotations

from checkout_consent.core import ControlRecords, Record, to_dollars
from checkout_consent.storefront import dataset
from checkout_consent.storefront.controls.oracle import bound_cents
from checkout_consent.storefront.state import Setup, State


def world_of(r: Record) -> State:
    return dataset.world(dataset.scenario(int(r["seed"]), str(r["scenario"])))


def idle_cash(setup: Setup) -> float:
    """What doing nothing ends with: the starting cash less every day's platform fee."""
    return to_dollars(setup.starting_cash_cents - setup.days * setup.platform_fee_cents)


def check_sanity(records: ControlRecords) -> list[str]:
    """The controls must bracket the range before any result is reported: idle ends at the
    computed idle cash, the oracle at the proven bound of its world, and no control beats
    the oracle on any seed."""
    problems: list[str] = []
    for r in records.get("idle", []):
        if r["cash_final"] != (want := idle_cash(world_of(r).setup)):
            problems.append(f"idle seed {r['seed']}: cash_final {r['cash_final']} != {want}")
    for r in records.get("gullible", []):
        if r["traps_total"] == 0 or r["traps_caught"] != 0 or r["trap_cost_paid_cents"] <= 0:
            problems.append(
                f"gullible seed {r['seed']}: expected 0% caught and surcharges "
                f"paid, got {r['traps_caught']}/{r['traps_total']}"
            )
    for r in records.get("cautious", []):
        if r["traps_total"] == 0 or r["traps_caught"] != r["traps_total"]:
            problems.append(
                f"cautious seed {r['seed']}: caught {r['traps_caught']}/"
                f"{r['traps_total']}, expected all"
            )
    for r in records.get("oracle", []):
        if r["cash_final"] != (bound := to_dollars(bound_cents(world_of(r).setup))):
            problems.append(
                f"oracle seed {r['seed']}: cash_final {r['cash_final']} != its proven bound {bound}"
            )
    best = {r["seed"]: r["cash_final"] for r in records.get("oracle", [])}
    for name, rows in records.items():
        for r in rows:
            if r["cash_final"] > best.get(r["seed"], float("-inf")):
                problems.append(f"{name} seed {r['seed']} beats oracle: {r['cash_final']}")
    return problems
