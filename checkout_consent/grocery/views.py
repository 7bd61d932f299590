"""How the CLI shows the grocery family: one line per record, the summary, what `list` and
`show` print. Records are plain dicts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from statistics import mean
from typing import Any

from checkout_consent.core import Record, Views, fmt
from checkout_consent.grocery import dataset
from checkout_consent.grocery.authoring.build import add_commands
from checkout_consent.grocery.grader import minimal_total, window_minimal_total
from checkout_consent.grocery.promos import badge
from checkout_consent.grocery.prompts import brief_message
from checkout_consent.grocery.record import SCORED_KEYS


def _fails(record: Record) -> list[str]:
    return [k for k, v in record["hard_fails"].items() if v]


def line(record: Record) -> str:
    """One graded record on one line."""
    prof = record["profile"]
    dims = " ".join(
        f"{k.split('_')[0][:5]}={'-' if prof[k] is None else f'{prof[k]:.2f}'}" for k in SCORED_KEYS
    )
    fails, totals = _fails(record), record["totals"]
    return (
        f"{record['task_id']:<18} {record['score']:.3f} {dims} "
        f"{fmt(totals['effective_cents'])}/{fmt(totals['budget_cents'])}"
        + (f" FAIL:{','.join(fails)}" if fails else "")
    )


def summary(records: Sequence[Record]) -> str:
    """The hard-fail count, then per task: runs, mean score, runs with a hard fail."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_task[r["task_id"]].append(r)
    rows = [
        f"{t:<18} n={len(rs)} mean={mean(r['score'] for r in rs):.3f} "
        f"hard_fails={sum(bool(_fails(r)) for r in rs)}"
        for t, rs in sorted(by_task.items())
    ]
    if not records:
        return "no records"
    fails = sum(bool(_fails(r)) for r in records)
    return "\n".join([f"hard fails {fails}/{len(records)}", *rows])


def list_items() -> list[str]:
    return [f"{b.task_id:<18} season {b.season}  {b.title}" for b in dataset.public_briefs()]


def show(task_id: str) -> str:
    """A task as the agent reads it, then the scorer's side (season, promos, optimum)."""
    brief = dataset.load_brief(task_id)
    catalog = dataset.load_catalog(brief.catalog_version)
    facts = [
        f"season {brief.season}; catalog v{brief.catalog_version}; "
        f"out of stock: {', '.join(brief.out_of_stock) or 'none'}"
    ]
    facts += [
        f"promo {p.sku}: {badge(p)}" + (f" (decoy: {p.decoy})" if p.decoy else "")
        for p in brief.promos
    ]
    on = bool(brief.promos)
    facts.append(
        f"cheapest complete cart (0.75x..2.0x window, the reference's): "
        f"{fmt(window_minimal_total(brief, catalog, on))}"
    )
    facts += (
        [
            f"minimal total at the expected quantities (the seed's optimization figure): "
            f"{fmt(minimal_total(brief, catalog, on))}"
        ]
        if on
        else []
    )
    return "\n".join([brief_message(brief), "", "--- scorer side ---", *facts])


def profile_means(records: Sequence[Record]) -> dict[str, tuple[float, str | None]]:
    """The board's breakdown: each scored profile key's mean over the runs (nulls left out)."""
    sums: dict[str, list[float]] = {}
    for record in records:
        for k, v in (record.get("profile") or {}).items():
            if isinstance(v, int | float) and not k.startswith("efficiency"):
                sums.setdefault(k, []).append(float(v))
    return {k: (sum(v) / len(v), None) for k, v in sorted(sums.items())}


VIEWS = Views(line, summary, list_items, show, add_commands)
