"""What the CLI prints: one line per graded record, a summary, and a task's brief."""

from __future__ import annotations

from collections import defaultdict
from statistics import mean
from typing import Any

from checkout_consent.core.money import fmt
from checkout_consent.grocery import dataset
from checkout_consent.grocery.promos import badge
from checkout_consent.grocery.prompts import brief_message
from checkout_consent.grocery.record import SCORED_KEYS
from checkout_consent.grocery.scorer import minimal_total


def _fails(record: dict[str, Any]) -> list[str]:
    return [k for k, v in record["hard_fails"].items() if v]


def line(record: dict[str, Any]) -> str:
    """One graded record (as a dict, e.g. from --json) on one line."""
    prof = record["profile"]
    dims = " ".join(f"{k.split('_')[0][:5]}={'-' if prof[k] is None else f'{prof[k]:.2f}'}"
                    for k in SCORED_KEYS)
    fails = _fails(record)
    totals = record["totals"]
    return (f"{record['task_id']:<18} {record['score']:.3f} {dims} "
            f"{fmt(totals['effective_cents'])}/{fmt(totals['budget_cents'])}"
            + (f" FAIL:{','.join(fails)}" if fails else ""))


def summary(records: list[dict[str, Any]]) -> str:
    """Per task: runs, mean score, runs with a hard fail; then the overall mean."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_task[r["task_id"]].append(r)
    rows = [f"{t:<18} n={len(rs)} mean={mean(r['score'] for r in rs):.3f} "
            f"hard_fails={sum(bool(_fails(r)) for r in rs)}" for t, rs in sorted(by_task.items())]
    overall = mean(r["score"] for r in records) if records else 0.0
    return "\n".join([*rows, f"{'all':<18} n={len(records)} mean={overall:.3f}"])


def show(task_id: str) -> str:
    """A task as the agent reads it, then the scorer's side (season, promos, optimum)."""
    brief = dataset.load_brief(task_id)
    catalog = dataset.load_catalog(brief.catalog_version)
    facts = [f"season {brief.season}; catalog v{brief.catalog_version}; "
             f"out of stock: {', '.join(brief.out_of_stock) or 'none'}"]
    facts += [f"promo {p.sku}: {badge(p)}" + (f" (decoy: {p.decoy})" if p.decoy else "")
              for p in brief.promos]
    facts.append(f"cheapest complete cart: "
                 f"{fmt(minimal_total(brief, catalog, bool(brief.promos)))}")
    return "\n".join([brief_message(brief), "", "--- scorer side ---", *facts])
