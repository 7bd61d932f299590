"""End to end through Inspect: every control, live, gives the same records as offline play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.offline import play_and_grade
from checkout_consent.pizza import WORLD
from checkout_consent.pizza.dataset import find_task, scenario_of

pytestmark = pytest.mark.inspect
# one task per template; cold-pizza-2 and angry-repeat-1 withhold the order id
TASK_IDS = [
    "wrong-topping-2",
    "cold-pizza-2",
    "missing-item-1",
    "late-delivery-3",
    "wrong-address-2",
    "allergen-3",
    "angry-repeat-1",
    "fraud-pattern-4",
]


def _eval(models: list[str], log_dir: Path, **task_args: Any) -> dict[str, list[dict[str, Any]]]:
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval(
        "checkout_consent/pizza",
        model=models,
        log_dir=str(log_dir),
        display="none",
        task_args={"tasks": ",".join(TASK_IDS), **task_args},
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for log in logs:
        assert log.status == "success", log.error
        samples = sorted(log.samples or [], key=lambda s: str(s.id))
        scores = [next(iter(s.scores.values())).metadata for s in samples]
        for meta in scores:  # who played is provenance, attached once, not in the record
            assert meta["provenance"]["model_id"] == log.eval.model
            assert meta["provenance"]["epoch"] == 1
            latency = meta["provenance"]["latency_s"]  # the provider's time: a float, >= 0
            assert isinstance(latency, float) and latency >= 0.0
            assert meta["world_version"] == meta["record"]["world_version"] == WORLD.world_version
        out[log.eval.model] = [meta["record"] for meta in scores]
    return out


def _offline(control: str, replies: bool) -> list[dict[str, Any]]:
    tasks = sorted((find_task(t) for t in TASK_IDS), key=lambda t: t.task_id)
    return [
        play_and_grade(WORLD, scenario_of(t, replies=replies), WORLD.controls[control])
        for t in tasks
    ]


def test_inspect__every_control_scores_as_it_does_offline(tmp_path: Path) -> None:
    controls = WORLD.controls.sanity
    live = _eval([f"control/pizza-{c}" for c in controls], tmp_path)
    for control in controls:
        assert live[f"control/pizza-{control}"] == _offline(control, True), control
    assert {r["score"] for r in live["control/pizza-reference"]} == {1.0}
    assert {r["score"] for r in live["control/pizza-noop"]} == {0.0}


def test_inspect__one_shot_setting_still_scores_the_reference_in_full(tmp_path: Path) -> None:
    live = _eval(["control/pizza-reference"], tmp_path, replies="false")
    records = live["control/pizza-reference"]
    assert [r["score"] for r in records] == [1.0] * len(TASK_IDS)
    assert all(r["replies"] is False for r in records)
    assert records == _offline("reference", False)
