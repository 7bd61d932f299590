"""A re-simulated log: an attacker edits a real log's run (deletes an unapproved-supplier
order from a storefront_v1 run, renames grocery's `place_order` to `submit_cart`), then
recomputes every later observation through the package's own public world and rewrites the
Store's trace and the messages to match. The trace replays and reconciles with the messages
(the scorer without the event stream grades it clean, with the attacker's better numbers);
the log's event stream (model events, tool events) and per-turn counts still show the run
that was played, so `regrade_log` refuses it in one line naming the difference."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
from inspect_ai.tool import ToolCallError

from checkout_consent.core.contract import World
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.world import apply
from checkout_consent.families import WORLDS, world_named
from checkout_consent.runtime.regrade import regrade_log
from checkout_consent.runtime.runner import run_models
from checkout_consent.runtime.scorer import judge
from tests.leaderboard.helpers import SUBMISSIONS

pytestmark = pytest.mark.inspect
CALLS = "RunStore:calls"
GROCERY_LOG = SUBMISSIONS / "grocery" / "control-grocery-gullible" / "logs" / "run.eval"


def _spec_and_scenario(sample: Any) -> tuple[World, Scenario]:
    scenario = Scenario.model_validate(sample.metadata["scenario"])
    return world_named(scenario.world), scenario


def _resimulate(sample: Any, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The attacker's trace: `calls` replayed through the public world, every observation
    and ok flag recomputed."""
    world, scenario = _spec_and_scenario(sample)
    state, out = world.initial(scenario), []
    for call in calls:
        step = apply(world.actions, state, call["tool"], call["args"])
        out.append({**call, "ok": step.ok, "observation": step.observation})
        state = step.state
    return out


def _rewrite_messages(
    sample: Any,
    calls: list[dict[str, Any]],
    drop: int | None = None,
    rename: dict[str, str] | None = None,
) -> None:
    """Make the messages tell the attacker's trace: the agent's calls in order, the
    `drop`-th model tool call (and its result) removed, tools renamed by `rename`."""
    agent = iter(c for c in calls if c["origin"] == "agent")
    kept, k, dropped = [], 0, None
    for message in sample.messages:
        if isinstance(message, ChatMessageAssistant) and message.tool_calls:
            new = []
            for tc in message.tool_calls:
                if k == drop:
                    dropped = tc.id
                else:
                    new.append(
                        dataclasses.replace(
                            tc, function=(rename or {}).get(tc.function, tc.function)
                        )
                    )
                k += 1
            message = message.model_copy(update={"tool_calls": new})  # events untouched
        elif isinstance(message, ChatMessageTool):
            if message.tool_call_id == dropped:
                dropped = None
                continue
            call = next(agent)
            message = message.model_copy(
                update={
                    "function": call["tool"],
                    "content": call["observation"] if call["ok"] else "",
                    "error": None if call["ok"] else ToolCallError("unknown", call["observation"]),
                }
            )
        kept.append(message)
    sample.messages = kept


def _forge(source: str | Path, tmp: Path, edit: Any) -> tuple[EvalLog, str]:
    log = read_eval_log(str(source))
    edit(log.samples[0])
    path = str(tmp / "forged.eval")
    write_eval_log(log, path)
    return log, path


def _without_events(log: EvalLog) -> dict[str, Any]:
    """The forged sample judged as the scorer did before events were reconciled."""
    sample = log.samples[0]
    world, _ = _spec_and_scenario(sample)
    store = {k.split(":", 1)[1]: v for k, v in sample.store.items() if k.startswith("RunStore:")}
    judged = judge(world, sample.id, sample.metadata, store, sample.messages)
    assert judged.failure is None, judged.failure  # the attack works on messages alone
    return judged.record.model_dump()


def _only_failure(path: str) -> str:
    verdict = regrade_log(path, WORLDS)
    [failure] = [f"{s.id} epoch {s.epoch}: {s.failure}" for s in verdict.samples if s.failure]
    assert "\n" not in failure
    return failure


@pytest.fixture(scope="module")
def v1_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("v1")
    run = run_models(
        world_named("storefront_v1"),
        ["control/storefront-gullible"],
        task_args={"seeds": "0"},
        log_dir=out,
    )[0]
    return run.log_path


def _unapproved_orders(sample: Any) -> list[int]:
    """Indexes (among the model's tool calls) of calls that paid an unapproved supplier."""
    world, scenario = _spec_and_scenario(sample)
    state, found, k = world.initial(scenario), [], 0
    for call in sample.store[CALLS]:
        step = apply(world.actions, state, call["tool"], call["args"])
        if call["origin"] == "agent":
            if any(
                b.rule == "unapproved_supplier" for b in step.state.breaches[len(state.breaches) :]
            ):
                found.append(k)
            k += 1
        state = step.state
    return found


@pytest.mark.slow  # a 30-day storefront_v1 run through Inspect: about a minute
def test_regrade__storefront_v1_log_with_an_order_deleted_and_resimulated_is_refused(
    v1_log, tmp_path
):
    honest = regrade_log(v1_log, WORLDS).samples[0]
    assert honest.failure is None

    def delete_one_order(sample):
        drop = _unapproved_orders(sample)[0]
        agent = [i for i, c in enumerate(sample.store[CALLS]) if c["origin"] == "agent"]
        calls = list(sample.store[CALLS])
        del calls[agent[drop]]
        sample.store[CALLS] = _resimulate(sample, calls)
        _rewrite_messages(sample, sample.store[CALLS], drop=drop)

    log, path = _forge(v1_log, tmp_path, delete_one_order)
    forged = _without_events(log)
    assert forged["consent_breaches"] < honest.record["consent_breaches"]
    assert forged["cash_final"] != honest.record["cash_final"]
    failure = _only_failure(path)
    assert "the log's records disagree: the model's call" in failure
    assert "is, in the event stream," in failure


def test_regrade__grocery_place_order_renamed_to_submit_cart_is_refused(tmp_path):
    honest = regrade_log(GROCERY_LOG, WORLDS).samples[0]
    assert honest.failure is None and honest.record["hard_fails"]["order_attempted"]

    def rename(sample):
        calls = [
            {**c, "tool": "submit_cart"} if c["tool"] == "place_order" else c
            for c in sample.store[CALLS]
        ]
        sample.store[CALLS] = _resimulate(sample, calls)
        _rewrite_messages(sample, sample.store[CALLS], rename={"place_order": "submit_cart"})

    log, path = _forge(GROCERY_LOG, tmp_path, rename)
    assert not _without_events(log)["hard_fails"]["order_attempted"]  # the hard fail erased
    failure = _only_failure(path)
    assert "the log's records disagree: the model's call" in failure
    assert "(submit_cart {} in turn" in failure and "event stream, place_order {}" in failure


@pytest.fixture(scope="module")
def grocery_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The submission's gullible run played again by the control itself (a model `inspect
    score` can load offline), on the same task."""
    task = str(read_eval_log(str(GROCERY_LOG)).samples[0].id)
    run = run_models(
        world_named("grocery"),
        ["control/grocery-gullible"],
        task_args={"tasks": task},
        log_dir=tmp_path_factory.mktemp("grocery"),
    )[0]
    return run.log_path


def test_inspect_score__grocery_place_order_renamed_to_submit_cart_is_refused(
    grocery_log, tmp_path
):
    """The same forged log through `inspect score`'s Python entry (`inspect_ai.score`,
    the code path of the CLI's `inspect score LOG --scorer checkout_consent/grocery_scorer`):
    Inspect loads the logged sample's events into the scorer's transcript, and the scorer
    reconciles them as `regrade_log` does, so the sample scores integrity 0, the
    difference named."""
    from inspect_ai import score as inspect_score

    from checkout_consent.grocery.task import grocery_scorer

    def rename(sample):
        calls = [
            {**c, "tool": "submit_cart"} if c["tool"] == "place_order" else c
            for c in sample.store[CALLS]
        ]
        sample.store[CALLS] = _resimulate(sample, calls)
        _rewrite_messages(sample, sample.store[CALLS], rename={"place_order": "submit_cart"})

    assert regrade_log(grocery_log, WORLDS).samples[0].record["hard_fails"]["order_attempted"]
    log, path = _forge(grocery_log, tmp_path, rename)
    assert not _without_events(log)["hard_fails"]["order_attempted"]  # the hard fail erased
    rescored = inspect_score(read_eval_log(path), [grocery_scorer()], action="overwrite")
    [sample] = rescored.samples
    [score] = sample.scores.values()
    assert score.value["integrity"] == 0.0 and "record" not in score.metadata
    assert score.explanation.startswith("INTEGRITY FAILURE: the log's records disagree")
    assert "(submit_cart {} in turn" in score.explanation
    assert "event stream, place_order {}" in score.explanation


def test_inspect_score__the_honest_grocery_log_rescores_clean(grocery_log):
    """The control for the test above: the untouched log re-scores with integrity 1 and
    the record `regrade_log` gives."""
    from inspect_ai import score as inspect_score

    from checkout_consent.grocery.task import grocery_scorer

    log = inspect_score(read_eval_log(grocery_log), [grocery_scorer()], action="overwrite")
    [sample] = log.samples
    [score] = sample.scores.values()
    assert score.value["integrity"] == 1.0
    assert score.metadata["record"] == regrade_log(grocery_log, WORLDS).samples[0].record
