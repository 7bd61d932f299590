"""End to end through Inspect: every control, live over the public tasks, gives the same
records as the core offline driver, byte for byte and twice; no -T runs every public task."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.offline import play_and_grade
from checkout_consent.grocery import WORLD, dataset
from checkout_consent.grocery.grader import WORLD_VERSION

pytestmark = pytest.mark.inspect


def _eval(models: list[str], log_dir: Path) -> dict[str, list[dict[str, Any]]]:
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval(
        "checkout_consent/grocery", model=models, log_dir=str(log_dir), display="none"
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for log in logs:
        assert log.status == "success", log.error
        assert log.eval.task_version == WORLD.version
        samples = sorted(log.samples or [], key=lambda s: str(s.id))
        metas = [next(iter(s.scores.values())).metadata for s in samples]
        for meta in metas:
            assert meta["provenance"]["model_id"] == log.eval.model
            assert meta["world_version"] == meta["record"]["world_version"] == WORLD_VERSION
        out[log.eval.model] = [meta["record"] for meta in metas]
    return out


def _offline(control: str) -> list[dict[str, Any]]:
    return [
        play_and_grade(WORLD, s, WORLD.controls[control])
        for s in sorted(dataset.scenarios("public"), key=lambda s: s.scenario_id)
    ]


@pytest.mark.slow
def test_inspect__every_control_scores_as_it_does_offline_twice(tmp_path: Path) -> None:
    models = [f"control/grocery-{c}" for c in WORLD.controls.sanity]
    first, second = _eval(models, tmp_path / "a"), _eval(models, tmp_path / "b")
    for control in WORLD.controls.sanity:
        live = first[f"control/grocery-{control}"]
        assert len(live) == len(dataset.PUBLIC_IDS), control
        assert json.dumps(live) == json.dumps(_offline(control)), control
        assert json.dumps(second[f"control/grocery-{control}"]) == json.dumps(live), control
    assert {r["score"] for r in first["control/grocery-reference"]} == {1.0}
    assert not WORLD.controls.check_sanity(
        {c: first[f"control/grocery-{c}"] for c in WORLD.controls.sanity}
    )


def test_inspect__cli_eval_without_task_args_runs_every_public_task(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            "checkout_consent/grocery",
            "--model",
            "control/grocery-idle",
            "--log-dir",
            str(tmp_path),
            "--display",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    from inspect_ai.log import read_eval_log

    (path,) = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert sorted(str(s.id) for s in log.samples or []) == sorted(dataset.PUBLIC_IDS)


@pytest.mark.parametrize("scored_on", [datetime.date(2026, 10, 1), "2026-10-01", "2026-10-15"])
def test_inspect__scored_on_is_graded_by_its_dated_rule_not_an_integrity_failure(
    tmp_path: Path, scored_on: object
) -> None:
    """`inspect eval -T scored_on=2026-10-01` hands the task a date, `run` its text."""
    from inspect_ai import eval as inspect_eval

    (log,) = inspect_eval(
        "checkout_consent/grocery",
        model="control/grocery-reference",
        task_args={"tasks": "tight-week", "scored_on": scored_on},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    (score,) = (log.samples or [])[0].scores.values()  # type: ignore[union-attr]
    assert score.value["integrity"] == 1.0, score.explanation  # type: ignore[index]
    scenario = dataset.scenario("tight-week", str(scored_on))
    offline = play_and_grade(WORLD, scenario, WORLD.controls["reference"])
    assert json.dumps(score.metadata["record"]) == json.dumps(offline)  # type: ignore[index]
    assert offline["scored_on"] == str(scored_on)
