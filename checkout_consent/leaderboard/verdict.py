"""A submission's verdict: the card, the re-graded samples, every refusal; shown on one
screen or as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from checkout_consent.core.money import fmt_dollars
from checkout_consent.leaderboard.grading import SampleGrade
from checkout_consent.leaderboard.schema import Card
from checkout_consent.runtime.pricing import eval_cost_usd, normalized_cost_usd

SHOWN = 12  # refusals printed before "... and N more"


@dataclass
class Verdict:
    directory: str
    card: Card | None = None
    samples: list[SampleGrade] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    # (runs played, runs of the card's task set) when the logs play part of the set:
    # listed with its coverage and figures, never ranked (expected.partial)
    partial: tuple[int, int] | None = None

    @property
    def ok(self) -> bool:
        return not self.refusals

    @property
    def transcript(self) -> bool:
        return bool(self.samples)

    @property
    def tokens(self) -> tuple[int, int]:
        return (
            sum(s.input_tokens for s in self.samples),
            sum(s.output_tokens for s in self.samples),
        )

    def costs(self) -> tuple[float | None, float]:
        model = self.card.model.id if self.card else ""
        return eval_cost_usd(model, *self.tokens), normalized_cost_usd(*self.tokens)

    def status(self) -> str:
        if not self.ok:
            return "REFUSED"
        if self.partial is not None:
            played, of = self.partial
            return f"ACCEPTED (partial: {played} of {of} runs of the task set: listed, not ranked)"
        return "ACCEPTED" if self.transcript else "ACCEPTED (no transcript: listed, not ranked)"

    def to_json(self) -> dict[str, Any]:
        card = self.card
        return {
            "directory": self.directory,
            "ok": self.ok,
            "status": self.status(),
            "refusals": self.refusals,
            "family": card.family if card else None,
            "submission_id": card.submission_id if card else None,
            "samples": len(self.samples),
            "partial": None if self.partial is None else list(self.partial),
            "integrity_failures": sum(1 for s in self.samples if s.failure is not None),
            "tokens": {"input": self.tokens[0], "output": self.tokens[1]},
            "cost_usd": dict(zip(("list", "normalized"), self.costs(), strict=True)),
        }

    def render(self) -> str:
        card = self.card
        head = f"{self.status()}  {self.directory}"
        lines = [head]
        if card is not None:
            lines.append(
                f"  {card.family} / {card.submission_id}: {card.kind} {card.model.id}, "
                f"{card.world_version}, task set {card.task_set}, {card.epochs} epoch(s)"
            )
        if self.samples:
            failed = sum(1 for s in self.samples if s.failure is not None)
            listed, normalized = self.costs()
            lines.append(
                f"  re-graded {len(self.samples)} run(s), {failed} integrity failure(s);"
                f" tokens {self.tokens[0]} in / {self.tokens[1]} out; cost list "
                f"{'n/a' if listed is None else fmt_dollars(listed, 4)}, normalized "
                f"{fmt_dollars(normalized, 4)}"
            )
        lines += [f"  - {r}" for r in self.refusals[:SHOWN]]
        if len(self.refusals) > SHOWN:
            lines.append(f"  ... and {len(self.refusals) - SHOWN} more (--json lists them all)")
        return "\n".join(lines)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, sort_keys=True)
