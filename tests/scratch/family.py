"""A scratch family, the smallest the contract allows: pay one invoice exactly.

It exists to prove that a family is its folder plus one roster line: the test adds its
`MEMBER` to the roster and nothing else, then runs it through Inspect, the CLI, the board
and the API. World, grader, controls and views are all here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from checkout_consent.core.controls import Msg, Reply, call, next_call_id, say
from checkout_consent.core.family import ControlRecords, Episode, Record, Scenario, World
from checkout_consent.core.headline import Headline
from checkout_consent.core.money import fmt, parse_dollars
from checkout_consent.core.trace import Replay
from checkout_consent.core.world import ActionError, Outcome

NAME = "coinjar"
INVOICES = {"small": 1250, "large": 98_000}  # task id -> the invoice, in cents


@dataclass(frozen=True)
class State:
    invoice_cents: int
    paid_cents: int = 0


def pay(state: State, amount: str) -> Outcome[State]:
    """Pay the invoice.

    Args:
        amount: dollars to pay, e.g. "12.50".
    """
    cents = parse_dollars(amount)
    if cents <= 0:
        raise ActionError("amount must be positive")
    return Outcome(State(state.invoice_cents, state.paid_cents + cents), f"paid {fmt(cents)}")


class Paid(BaseModel):
    model_config = ConfigDict(frozen=True)
    task_id: str
    world_version: str
    paid_cents: int
    score: float  # 1.0 when exactly the invoice was paid


def scenario_for(task_id: str) -> Scenario:
    if task_id not in INVOICES:
        raise KeyError(f"no {NAME} task {task_id!r}")
    return Scenario(family=NAME, scenario_id=task_id, seed=0)


def grade(scenario: Scenario, replay: Replay[Any], turns: Any) -> Paid:
    paid = replay.final.paid_cents
    return Paid(
        task_id=scenario.scenario_id,
        world_version=f"{NAME}-1",
        paid_cents=paid,
        score=float(paid == INVOICES[scenario.scenario_id]),
    )


def _control(extra_cents: int) -> Any:
    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        if next_call_id(transcript) > 0:
            return say("done")
        owed = INVOICES[scenario.scenario_id] + extra_cents
        return call("pay", amount=f"{owed // 100}.{owed % 100:02d}")

    return policy


def check_sanity(records: ControlRecords) -> list[str]:
    exact = [r["score"] for r in records["exact"]]
    over = [r["score"] for r in records["over"]]
    return [] if min(exact) == 1.0 and max(over) == 0.0 else ["controls do not bracket"]


def _task() -> Any:
    from inspect_ai.scorer import scorer

    from checkout_consent.runtime.metrics import headline_metrics
    from checkout_consent.runtime.scorer import replay_score
    from checkout_consent.runtime.tasks import family_task
    from checkout_consent.runtime.tools import action_tools

    @scorer(metrics=headline_metrics(WORLD.headline), name=f"{NAME}_scorer")
    def coinjar_scorer() -> Any:
        return replay_score(WORLD)

    def coinjar(tasks: str = "small,large") -> Any:
        return family_task(
            WORLD,
            [scenario_for(t) for t in tasks.split(",")],
            scorer=coinjar_scorer(),
            tools=lambda: action_tools(WORLD, ("pay",)),
        )

    return coinjar


WORLD = World(
    name=NAME,
    version=1,
    summary_line="pay one invoice exactly",
    actions={"pay": pay},
    initial=lambda scenario: State(INVOICES[scenario.scenario_id]),
    grade=grade,
    metrics=lambda record: {"score": record.score},
    explain=lambda record: f"{record.score}",
    episode=Episode(
        system=lambda s: "You pay invoices.",
        opening=lambda s: f"Pay the invoice of {fmt(INVOICES[s.scenario_id])}.",
        turns=4,
    ),
    headline=Headline(
        "score",
        "mean",
        "%",
        family=NAME,
        passed=lambda r: r["score"] == 1.0,
        passed_means="the exact invoice paid",
    ),
    task_factory=_task,
    public_args={"tasks": "small,large"},
    task_params={"tasks": "task ids, comma-separated"},
    controls={"exact": _control(0), "over": _control(100)},
    sanity_controls=("exact", "over"),
    reference_control="exact",
    check_sanity=check_sanity,
    scenario_for=scenario_for,
    sample_id=lambda scenario: scenario.scenario_id,
    task_ids=lambda: list(INVOICES),
)


class Views:
    """How the CLI shows the scratch family."""

    @staticmethod
    def line(record: Record) -> str:
        return f"{record['task_id']}  paid {fmt(record['paid_cents'])}"

    @staticmethod
    def summary(records: Sequence[Record]) -> str:
        return f"exact payments {sum(r['score'] == 1.0 for r in records)}/{len(records)}"

    @staticmethod
    def list_items() -> list[str]:
        return [f"task {t} (invoice {fmt(c)})" for t, c in INVOICES.items()]

    @staticmethod
    def show(item: str) -> str:
        return WORLD.episode.opening(scenario_for(item))
