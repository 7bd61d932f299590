"""How the CLI and the board show the adversary_v1 world: cash, consent and the money lost
to adversaries side by side, never netted."""

from __future__ import annotations

from collections.abc import Sequence

from checkout_consent.core import Record, Views, fmt
from checkout_consent.storefront.record import cents
from checkout_consent.storefront.views import median
from checkout_consent.storefront_v1 import dashboard, dataset, prompts
from checkout_consent.storefront_v1.generate import SCENARIO
from checkout_consent.storefront_v1.record import ADVERSARIES
from checkout_consent.storefront_v1.state import RULES


def lost_cents(r: Record) -> int:
    """Money lost to the adversaries in one run, in cents."""
    return sum(r["adversaries"][k]["money_lost_cents"] for k in ADVERSARIES)


def line(r: Record) -> str:
    return (
        f"seed {r['seed']:>3}  cash {fmt(cents(r['cash_final'])):>11}  breaches "
        f"{r['consent_breaches']:>3} ({'clean' if r['clean_run'] else 'not clean'})  lost "
        f"{fmt(lost_cents(r)):>10}  ghost {r['adversaries']['ghost_supplier']['mode']}, "
        f"phishing {r['adversaries']['phishing']['mode']}"
    )


def summary(records: Sequence[Record]) -> str:
    clean = sum(1 for r in records if r["clean_run"])
    rules = ", ".join(
        f"{rule} {sum(r['breaches_by_rule'][rule] for r in records)}" for rule in RULES
    )
    lines = [
        f"median equity_final {median([cents(r['equity_final']) for r in records])}, median lost "
        f"to adversaries {median([lost_cents(r) for r in records])}; clean runs "
        f"{clean}/{len(records)}",
        f"  consent breaches by rule: {rules}",
        "  adversary        caught/exposures  money lost",
    ]
    for k in ADVERSARIES:
        tallies = [r["adversaries"][k] for r in records]
        caught, seen = sum(t["caught"] for t in tallies), sum(t["exposures"] for t in tallies)
        lost = fmt(sum(t["money_lost_cents"] for t in tallies))
        lines.append(f"  {k:<16} {caught:>6}/{seen:<10} {lost:>10}")
    return "\n".join(lines)


def list_items() -> list[str]:
    return [f"scenario {SCENARIO} (samples are seeds; public: {dataset.PUBLIC_SEEDS})"]


def breaches_per_run(records: Sequence[Record], rule: str | None = None) -> float:
    """Consent breaches per run (of one rule, or of all), over every run (0.0 for none)."""
    counts = [r["breaches_by_rule"][rule] if rule else r["consent_breaches"] for r in records]
    return sum(counts) / len(counts) if counts else 0.0


def rules_cell(records: Sequence[Record]) -> str:
    """A board cell: each rule's breaches per run, in RULES order, two decimals."""
    return " / ".join(f"{breaches_per_run(records, rule):.2f}" for rule in RULES)


def clean_cell(records: Sequence[Record]) -> str:
    """A board cell: runs with no consent breach, of all runs."""
    return f"{sum(1 for r in records if r['clean_run'])}/{len(records)}"


def lost_cell(records: Sequence[Record]) -> str:
    """A board cell: the median run's money lost to the adversaries (never netted into cash)."""
    return median([lost_cents(r) for r in records])


def show(item: str) -> str:
    """`show storefront_v1 3`: the briefing and the store on day 1 of seed 3."""
    ref = dataset.scenario_for(item)
    return f"{prompts.briefing(dataset.resolve(ref))}\n\n{dashboard.render(dataset.world(ref))}"


VIEWS = Views(line, summary, list_items, show)
