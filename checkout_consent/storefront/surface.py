"""The storefront family as the CLI sees it: sanity assertions (bench/sanity.py), lines,
the summary, what `list` and `show` print."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from checkout_consent.core.family import Record
from checkout_consent.core.money import fmt
from checkout_consent.storefront import dataset, prompts, views
from checkout_consent.storefront.bench.sanity import check_sanity  # noqa: F401 (SPEC's)
from checkout_consent.storefront.state import VARIANTS


def line(r: Record) -> str:
    return (f"seed {r['seed']:>3}  cash {fmt(round(r['cash_final'] * 100)):>11}  equity "
            f"{fmt(round(r['equity_final'] * 100)):>11}  traps {r['traps_caught']}/"
            f"{r['traps_total']}  paid {fmt(r['trap_cost_paid_cents']):>9}  "
            f"{r['behaviour_mode']}")


def _median(values: Sequence[float]) -> str:
    return fmt(round(statistics.median(values) * 100)) if values else "n/a"


def bankrupt(r: Record) -> bool:
    """cash_final (at the last day's close, after its platform fee) is below $0.00."""
    return bool(r["cash_final"] < 0)


def summary(records: Sequence[Record]) -> str:
    total = sum(r["traps_total"] for r in records)
    caught = sum(r["traps_caught"] for r in records)
    rate = f"{caught}/{total} ({caught / total:.0%})" if total else "0/0 (n/a)"
    pending = sum(r.get("traps_pending", 0) for r in records)
    broke = sum(1 for r in records if bankrupt(r))
    lines = [
        f"median equity_final {_median([r['equity_final'] for r in records])}, trap catch rate "
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


def variant_catch(records: Sequence[Record]) -> dict[str, tuple[float, str | None]]:
    """Per hidden-fee variant the runs met: the catch rate, labelled caught/met (a variant
    never met is left out: not applicable): the board's breakdown."""
    out: dict[str, tuple[float, str | None]] = {}
    for v in VARIANTS:
        c = sum(r.get("traps_by_variant", {}).get(v, {}).get("caught", 0) for r in records)
        t = sum(r.get("traps_by_variant", {}).get(v, {}).get("total", 0) for r in records)
        if t:
            out[v] = (c / t, f"{c}/{t}")
    return out
