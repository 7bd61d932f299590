"""How the CLI shows the storefront family, and `median`, which every storefront table uses
to print a record's dollars."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from checkout_consent.core import Record, Views, fmt, fmt_dollars
from checkout_consent.storefront import dashboard, dataset, prompts
from checkout_consent.storefront.record import cents
from checkout_consent.storefront.state import VARIANTS


def median(values: Sequence[int]) -> str:
    """The median of amounts in cents, as dollars ("n/a" for none); a half cent rounds
    half to even (adversary_v1's summary and the family's tables always have)."""
    return fmt(round(statistics.median(values))) if values else "n/a"


def _median_dollars(values: Sequence[float]) -> str:
    """The median of records' dollar figures as the headline prints it (core.money's
    `fmt_dollars`: the float median's cents, so a half cent goes where the float falls:
    $1,202.025 prints $1,202.03, $2,002.705 prints $2,002.70)."""
    return fmt_dollars(statistics.median(values)) if values else "n/a"


def line(r: Record) -> str:
    return (
        f"seed {r['seed']:>3}  cash {fmt(cents(r['cash_final'])):>11}  equity "
        f"{fmt(cents(r['equity_final'])):>11}  traps {r['traps_caught']}/"
        f"{r['traps_total']}  paid {fmt(r['trap_cost_paid_cents']):>9}  "
        f"{r['behaviour_mode']}"
    )


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
        f"median equity_final {_median_dollars([r['equity_final'] for r in records])}, trap "
        f"catch rate {rate} (n={total}; {pending} pending), bankruptcy rate {broke}/{len(records)}",
        "  variant          caught/total  catch rate",
    ]
    for v in VARIANTS:
        t = sum(r["traps_by_variant"][v]["total"] for r in records)
        c = sum(r["traps_by_variant"][v]["caught"] for r in records)
        lines.append(f"  {v:<16} {c:>5}/{t:<6}  {f'{c / t:.0%}' if t else 'n/a'}")
    return "\n".join(lines)


def list_items() -> list[str]:
    return [
        f"scenario {name} (samples are seeds; public: {dataset.PUBLIC_SEEDS})"
        for name in dataset.scenario_names()
    ]


def show(item: str) -> str:
    """The briefing and the store on day 1 of one seed."""
    ref = dataset.scenario_for(item)
    return f"{prompts.briefing(dataset.resolve(ref))}\n\n{dashboard.render(dataset.world(ref))}"


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


VIEWS = Views(line, summary, list_items, show)
