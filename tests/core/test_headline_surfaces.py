"""One headline, every surface: for every world of the roster, the Inspect metric, the CLI
summary, the leaderboard, the scoring API and the MCP server give the same value, interval
and order on the same runs (each world's controls, played offline)."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai.scorer import SampleScore, Score

from checkout_consent.cli.run import offline_controls
from checkout_consent.core.consent import breach_value, describe_rate, rate_headline
from checkout_consent.core.contract import World
from checkout_consent.core.headline import Figure, Headline
from checkout_consent.core.summary import consent_figure, figure, summary
from checkout_consent.families import WORLDS, world_named
from checkout_consent.leaderboard.board import Entry
from checkout_consent.leaderboard.board import views as board_views
from checkout_consent.leaderboard.submission import Card
from checkout_consent.runtime.metrics import consent_metrics, headline_metrics
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage


def _card(world: World, agent: str) -> Card:
    return Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": agent,
            "family": world.name,
            "kind": "model",
            "model": {"id": f"x/{agent}", "provider": "x"},
            "agent": {"harness": "h", "tools": []},
            "date": "2026-12-01",
            "suite_version": "0",
            "world_version": world.world_version,
            "task_set": "public",
            "epochs": 1,
            "wall_time_seconds": 0,
            "tokens": {"input": 0, "output": 0},
            "cost": {"list_usd": 0, "normalized_usd": 0},
            "contact": "c",
        }
    )


def _inspect(world: World, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The value Inspect's metric reports (a sample is a task: one epoch here)."""
    scores = [
        SampleScore(
            score=Score(value=world.metrics(_model(world, r))), sample_id=world.dataset.task_of(r)
        )
        for r in records
    ]
    (metric,) = headline_metrics(world.headline)
    return dict(metric(scores))


def _consent(world: World, records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the scorer's consent metric reports (None: the world declares none)."""
    scores = [
        SampleScore(score=Score(value=breach_value(r)), sample_id=world.dataset.task_of(r))
        for r in records
    ]
    declared = consent_metrics(world)
    return dict(declared[0](scores)) if declared else None


def _same_rate(world: World, records: list[dict[str, Any]]) -> None:
    """The consent-breach rate: Inspect's `breach` metric and the CLI summary's line give
    core.consent.breach_rate's value and interval; a world without money, neither."""
    rate, metric = consent_figure(world, records), _consent(world, records)
    line = describe_rate(world.family, rate, world.moves_money)
    assert f"; {line}; " in summary(world, records)
    if not world.moves_money:
        assert (rate, metric, line) == (None, None, "consent: no money movement")
        return
    assert rate is not None and metric is not None
    shown = rate_headline(world.family).metric_value
    want = tuple(shown(x) for x in rate[:3])
    assert (metric["breach_%"], metric["breach_lo_%"], metric["breach_hi_%"]) == want


def _model(world: World, record: dict[str, Any]) -> Any:
    """The family's record model again (its `metrics` reads the model, as the scorer does)."""
    return _record_type(world.name).model_validate(record)


@functools.cache
def _record_type(label: str) -> Any:
    world = world_named(label)
    scenario = world.dataset.task(world.dataset.tasks()[0])
    return type(world.grade(scenario, _empty_replay(world, scenario), ()))


def _empty_replay(world: World, scenario: Any) -> Any:
    from checkout_consent.core.trace import replay

    return replay(world.actions, world.initial(scenario), [])


def _same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


def _mcp_board(service: Service, name: str) -> list[dict[str, Any]]:
    from checkout_consent.serve.mcp import build  # the MCP SDK: loaded when a test asks

    server = build(service)

    async def call() -> Any:
        return await server.call_tool("get_leaderboard", {"family": name})

    got = anyio.run(call)
    assert not got.is_error, got
    return list(json.loads("".join(c.text for c in got.content))["entries"])


# storefront_v1's headline is storefront's (median cash_final in $, family storefront) and so is
# its consent rate: its 30-day months, the costliest records to play, are checked in the slow
# layer; [storefront] checks the same surfaces on the same headline in the default run.
SLOW = {"storefront_v1"}


@pytest.mark.parametrize(
    "world",
    [pytest.param(w, marks=[pytest.mark.slow] * (w.name in SLOW)) for w in WORLDS],
    ids=lambda w: w.name,
)
def test_headline__every_surface_gives_the_same_value_and_order(
    world: World, tmp_path: Path
) -> None:
    runs = offline_controls(world)
    head: Headline = world.headline
    figures: dict[str, Figure | None] = {c: figure(world, rs) for c, rs in runs.items()}
    storage = Storage(str(tmp_path / "board.db"))
    service = Service(storage)
    entries = []
    for control, records in runs.items():
        got = figures[control]
        assert got is not None
        # Inspect: the metric the family's scorer declares
        metric = _inspect(world, records)
        assert metric == head.metrics(got), (control, metric)
        value, low, high = head.metric_names()
        assert (metric[value], metric[low], metric[high], metric["n_tasks"]) == (
            head.metric_value(got.value),
            head.metric_value(got.low),
            head.metric_value(got.high),
            got.tasks,
        )
        _same_rate(world, records)
        # CLI: the summary's first words are the headline, shown by the headline
        assert summary(world, records).startswith(f"{head.label} {head.show(got.value)} ")
        # the board's entry
        entry = Entry(
            _card(world, control),
            "x",
            tuple((world.dataset.task_of(r), world.dataset.task_of(r), 1, r) for r in records),
            (0, 0),
            None,
            0.0,
            None,
        )
        assert tuple(entry.interval()) == (got.value, got.low, got.high, got.tasks)
        entries.append(entry)
        # the API's storage: each run stored as a traced submission of this agent
        for r in records:
            storage.add(world.name, world.dataset.task_of(r), control, None, {"calls": []}, r)
    order = head.rank(figures)
    # every world its own board (a family's second world too), in the headline's order
    rows = board_views(world.name, entries)[0].rows
    assert [r.entry.card.submission_id for r in rows] == order
    api = service.leaderboard(world.name)
    assert [e["agent"] for e in api] == order
    for e in api:
        assert _same(e["value"], figures[e["agent"]].value)  # type: ignore[union-attr]
        assert e["headline"] == head.name
    mcp = _mcp_board(Service(Storage(str(tmp_path / "board.db"))), world.name)
    assert [e["agent"] for e in mcp] == order
    assert [e["value"] for e in mcp] == [e["value"] for e in api]


def test_headline__a_nan_or_missing_value_is_refused_in_one_line() -> None:
    head = Headline("cash", "median", "$", family="x")
    for bad in ({"cash": float("nan")}, {"cash": float("inf")}, {}, {"cash": "1"}):
        with pytest.raises(ValueError, match="no finite number 'cash'"):
            head.figure([("t", bad)])


def test_headline__rank_follows_the_direction_and_breaks_ties_by_name() -> None:
    up = Headline("s", "mean", "", family="x")
    down = Headline("s", "mean", "", family="x", higher_is_better=False)
    figs = {n: up.figure([("t", {"s": v})]) for n, v in (("b", 1.0), ("a", 1.0), ("c", 2.0))}
    assert up.rank(figs) == ["c", "a", "b"] and down.rank(figs) == ["a", "b", "c"]
    assert up.rank({**figs, "none": None})[-1] == "none"


def test_headline__median_and_mean_reduce_epochs_per_task_first() -> None:
    runs = [("t1", {"s": 0.0}), ("t1", {"s": 1.0}), ("t2", {"s": 1.0}), ("t3", {"s": 0.0})]
    mean = Headline("s", "mean", "", family="x").figure(runs)
    median = Headline("s", "median", "", family="x").figure(runs)
    assert mean is not None and median is not None
    assert (mean.value, mean.tasks, mean.runs) == (0.5, 3, 4)
    assert median.value == 0.5 and median.low <= median.value <= median.high


def test_headline__a_slow_worlds_headline_is_checked_by_a_default_worlds() -> None:
    """The comment on SLOW holds: a world left to the slow layer shares its headline (all but
    the pass rule) and its money movement with a world the default run checks."""

    def shape(world: World) -> tuple[Any, ...]:
        h = world.headline
        return (h.key, h.statistic, h.unit, h.family, h.higher_is_better, h.places) + (
            world.moves_money,
        )

    default = {shape(w) for w in WORLDS if w.name not in SLOW}
    for w in WORLDS:
        if w.name in SLOW:
            assert shape(w) in default, w.name
