"""From validated submissions to board entries: the headline with its CI, pass^k, costs.

Everything here is computed from the re-graded records, never from the card's claims
(except the submitter-stated date, model name and contact, shown as stated)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from checkout_consent.core.consent import breach_rate
from checkout_consent.core.headline import Figure
from checkout_consent.core.stats import Interval, pass_hat_k
from checkout_consent.families import world
from checkout_consent.leaderboard.headline import headline, label_of
from checkout_consent.leaderboard.schema import Card
from checkout_consent.leaderboard.seasons import season_of
from checkout_consent.leaderboard.verdict import Verdict

# A record whose `totals` carries this key (cents spent beyond the task's minimal total) gets
# a gap column beside the headline: reported, never ranked.
GAP_KEY = "gap_cents"


@dataclass(frozen=True)
class Entry:
    card: Card
    path: str  # the submission folder, relative to the leaderboard/ folder
    runs: tuple[tuple[str, str, int, dict], ...]  # (sample id, scenario id, epoch, record)
    tokens: tuple[int, int]
    cost_list: float | None
    cost_normalized: float
    season: int | None
    reproduced: bool = False  # a maintainer re-ran it (leaderboard/reproduced.yaml)
    partial: tuple[int, int] | None = None  # (runs, of the set): part of it, never ranked

    @property
    def world(self) -> str:
        """The label of the world the card names (`family` or `family/variant`); the
        family's main world for a version this suite does not know."""
        return label_of(self.card.family, self.card.world_version)

    @property
    def ranked(self) -> bool:
        return self.card.kind == "model" and bool(self.runs) and self.partial is None

    def on(self, tasks: frozenset[str] | None) -> Entry:
        """This entry restricted to the runs of `tasks` (None: all)."""
        if tasks is None:
            return self
        kept = tuple(r for r in self.runs if r[1] in tasks)
        return Entry(
            self.card,
            self.path,
            kept,
            self.tokens,
            self.cost_list,
            self.cost_normalized,
            self.season,
            self.reproduced,
            self.partial,
        )

    def per_task(self) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = defaultdict(list)
        for task, _, _, record in self.runs:
            out[task].append(record)
        return out

    def interval(self) -> Interval:
        """The world's headline over this entry's runs, with its 95% interval."""
        got = headline(self.world).figure([(task, r) for task, _, _, r in self.runs])
        return (
            Interval(0.0, 0.0, 0.0, 0)
            if got is None
            else Interval(got.value, got.low, got.high, got.tasks)
        )

    def consent(self) -> Figure | None:
        """The consent-breach rate over this entry's runs (`core.consent.breach_rate`, as
        the CLI and the Inspect metric give it); None for a world that moves no money."""
        spec = world(self.world)
        runs = [(task, r) for task, _, _, r in self.runs]
        return breach_rate(spec.name, runs) if spec.moves_money else None

    def gap(self) -> float | None:
        """Mean over tasks (epochs first) of the runs' `totals.gap_cents`, in dollars; None
        when no run reports one."""
        per_task = [
            [g for r in rs if (g := (r.get("totals") or {}).get(GAP_KEY)) is not None]
            for rs in self.per_task().values()
        ]
        means = [sum(gs) / len(gs) / 100 for gs in per_task if gs]
        return sum(means) / len(means) if means else None

    def pass_k(self) -> float | None:
        """pass^k at k = the declared epochs (None with one epoch)."""
        if self.card.epochs < 2 or not self.runs:
            return None
        passed = headline(self.world).passed
        if passed is None:
            return None
        trials = [(task, passed(r)) for task, _, _, r in self.runs]
        return pass_hat_k(trials, self.card.epochs)


def entry(verdict: Verdict, path: Path) -> Entry:
    card = verdict.card
    assert card is not None and verdict.ok
    runs = tuple(
        sorted(
            (s.id, str((s.scenario or {}).get("scenario_id", s.id)), s.epoch, s.record)
            for s in verdict.samples
            if s.record is not None
        )
    )
    listed, normalized = verdict.costs()
    return Entry(
        card,
        path.as_posix(),
        runs,
        verdict.tokens,
        listed,
        normalized,
        season_of(label_of(card.family, card.world_version), card.task_set),
        partial=verdict.partial,
    )
