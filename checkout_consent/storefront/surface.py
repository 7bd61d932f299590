"""The storefront family as the CLI sees it: sanity assertions, lines, the summary, what
`list` and `show` print."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from checkout_consent.core.family import ControlRecords, Record
from checkout_consent.core.money import fmt, to_dollars
from checkout_consent.storefront import dataset, prompts, views
from checkout_consent.storefront.bench.oracle import bound_cents
from checkout_consent.storefront.state import VARIANTS, Setup, State



def _world(r: Record) -> State:
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
        if r["cash_final"] != (want := idle_cash(_world(r).setup)):
            problems.append(f"idle seed {r['seed']}: cash_final {r['cash_final']} != {want}")
    for r in records.get("gullible", []):
        if r["traps_total"] == 0 or r["traps_caught"] != 0 or r["trap_cost_paid_cents"] <= 0:
            problems.append(f"gullible seed {r['seed']}: expected 0% caught and surcharges "
                            f"paid, got {r['traps_caught']}/{r['traps_total']}")
    for r in records.get("cautious", []):
        if r["traps_total"] == 0 or r["traps_caught"] != r["traps_total"]:
            problems.append(f"cautious seed {r['seed']}: caught {r['traps_caught']}/"
                            f"{r['traps_total']}, expected all")
    for r in records.get("oracle", []):
        if r["cash_final"] != (bound := to_dollars(bound_cents(_world(r).setup))):
            problems.append(f"oracle seed {r['seed']}: cash_final {r['cash_final']} != "
                            f"its proven bound {bound}")
    best = {r["seed"]: r["cash_final"] for r in records.get("oracle", [])}
    for name, rows in records.items():
        for r in rows:
            if r["cash_final"] > best.get(r["seed"], float("-inf")):
                problems.append(f"{name} seed {r['seed']} beats oracle: {r['cash_final']}")
    return problems


def line(r: Record) -> str:
    return (f"seed {r['seed']:>3}  cash {fmt(round(r['cash_final'] * 100)):>11}  equity "
            f"{fmt(round(r['equity_final'] * 100)):>11}  traps {r['traps_caught']}/"
            f"{r['traps_total']}  paid {fmt(r['trap_cost_paid_cents']):>9}  "
            f"{r['behaviour_mode']}")


def _median(values: Sequence[float]) -> str:
    return fmt(round(statistics.median(values) * 100)) if values else "n/a"


def bankrupt(r: Record) -> bool:
    """A run is bankrupt when its cash_final (cash at the close of the last day, after that
    day's platform fee) is below $0.00."""
    return bool(r["cash_final"] < 0)


def summary(records: Sequence[Record]) -> str:
    total = sum(r["traps_total"] for r in records)
    caught = sum(r["traps_caught"] for r in records)
    rate = f"{caught}/{total} ({caught / total:.0%})" if total else "0/0 (n/a)"
    pending = sum(r.get("traps_pending", 0) for r in records)
    broke = sum(1 for r in records if bankrupt(r))
    lines = [
        f"median cash_final {_median([r['cash_final'] for r in records])}, median "
        f"equity_final {_median([r['equity_final'] for r in records])}, trap catch rate "
        f"{rate} (n={total}; {pending} pending), bankruptcy rate {broke}/{len(records)}",
        "  variant          caught/total  catch rate",
    ]
    for v in VARIANTS:
        t = sum(r["traps_by_variant"][v]["total"] for r in records)
        c = sum(r["traps_by_variant"][v]["caught"] for r in records)
        lines.append(f"  {v:<16} {c:>5}/{t:<6}  {f'{c / t:.0%}' if t else 'n/a'}")
    return "\n".join(lines)


def list_items() -> list[str]:
    return [f"scenario {name} (samples are seeds; public: {dataset.PUBLIC_SEEDS})"
            for name in dataset.scenario_names()]


def show(item: str) -> str:
    """The briefing and the store on day 1 of one seed."""
    ref = dataset.scenario_for(item)
    return f"{prompts.briefing(dataset.resolve(ref))}\n\n{views.render(dataset.world(ref))}"
