"""The family's grader, pure over a resolved brief and catalog: a replayed trace becomes a
`Cart` and goes through `scorer.score`, the code path a submitted cart takes too
(submission.py). `SPEC.grade` resolves the scenario through dataset and calls `grade_run`."""

from __future__ import annotations

from checkout_consent.core.family import Turns
from checkout_consent.core.trace import Replay
from checkout_consent.grocery.brief import Brief
from checkout_consent.grocery.catalog import Catalog
from checkout_consent.grocery.record import SCORED_KEYS, Efficiency, GroceryRecord
from checkout_consent.grocery.scorer import VERSION, score
from checkout_consent.grocery.state import State

__all__ = ["VERSION", "explain", "grade_run", "metrics"]  # VERSION: defined with the scorer


def grade_run(brief: Brief, catalog: Catalog, scored_on: str | None, replay: Replay[State],
              turns: Turns) -> GroceryRecord:
    """Grade a replayed trace. A run that never handed the cart over, or whose replay does
    not reproduce what the agent saw, is flagged invalid_submission. Tokens come from the
    run's model turns (input + output); time is not known from a trace."""
    final = replay.final
    tokens = sum(g.input_tokens + g.output_tokens for g in turns)
    efficiency = Efficiency(token_cost=tokens, tool_calls=len(replay.calls))
    invalid = replay.mismatch is not None or not final.closed
    return score(brief, catalog, final.cart, scored_on=scored_on, efficiency=efficiency,
                 invalid=invalid)


def metrics(record: GroceryRecord) -> dict[str, float]:
    """Flat numbers for aggregation; a null profile value is left out."""
    out = {"score": record.score, "hard_fail": float(record.failed)}
    out |= {k: float(v) for k in SCORED_KEYS if (v := getattr(record.profile, k)) is not None}
    out |= {f"fail_{k}": float(v) for k, v in record.hard_fails.model_dump().items()}
    return out


def explain(record: GroceryRecord) -> str:
    fails, lines = [k for k, v in record.hard_fails.model_dump().items() if v], record.lines
    return (f"{record.task_id}: score {record.score:.2f}; "
            f"{len(lines.matched)} lines matched, {len(lines.missing)} missing, "
            f"{len(lines.wrong_unit)} wrong unit, {len(lines.extra)} extra; "
            f"effective ${record.totals.effective_cents / 100:.2f} of "
            f"${record.totals.budget_cents / 100:.2f}"
            + (f"; HARD FAIL {', '.join(fails)}" if fails else ""))
