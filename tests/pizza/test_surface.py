"""The CLI surface: sanity catches broken controls, show/score/list/generate work offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.offline import grade_saved, play, play_and_grade
from checkout_consent.core.stats import bootstrap_ci
from checkout_consent.core.summary import summary
from checkout_consent.pizza import WORLD, dataset
from checkout_consent.pizza.controls.sanity import check_sanity
from checkout_consent.pizza.dataset import scenario as scenario_for
from checkout_consent.pizza.dataset import scenario_of
from checkout_consent.pizza.views import line, show

Records = dict[str, list[dict[str, Any]]]


def score_trace(task_id: str, trace: Any) -> dict[str, Any]:
    """What `checkout-consent score pizza --task ID --trace FILE` grades."""
    return grade_saved(WORLD, scenario_for(task_id), trace)


@pytest.fixture(scope="module")
def records() -> Records:
    tasks = list(dataset.public_tasks())
    return {
        c: [play_and_grade(WORLD, scenario_of(t), WORLD.controls[c]) for t in tasks]
        for c in WORLD.controls.sanity
    }


def test_check_sanity__passes_the_real_controls(records: Records) -> None:
    assert check_sanity(records) == []


def test_check_sanity__catches_each_broken_control(records: Records) -> None:
    swaps = {
        "reference": "mock",
        "noop": "mock",
        "mock": "reference",
        "before-lookup": "duplicate",
        "duplicate": "mixed",
        "over-cap": "noop",
        "mixed": "before-lookup",
    }
    for control, impostor in swaps.items():
        broken = {**records, control: records[impostor]}
        problems = check_sanity(broken)
        assert problems and problems[0].startswith(control), control


def test_summary__reports_mean_ci_and_pass_k_over_epochs(records: Records) -> None:
    mock = records["mock"]
    ci = bootstrap_ci([r["score"] for r in mock], family="pizza")
    text = summary(WORLD, mock)  # the CLI's: the family's headline, then its own lines
    assert text.startswith("mean score 50.0% (bootstrap 95% CI over tasks 35.0% to 65.0%")
    assert f"{ci.mean:.1%}" in text and f"{ci.low:.1%} to {ci.high:.1%}" in text
    assert "pass^k" not in text
    twice = mock + mock  # a second epoch of every task
    assert "pass^k: k=1" in summary(WORLD, twice) and "k=2" in summary(WORLD, twice)
    assert f"n={len(mock)} tasks, {len(twice)} samples" in summary(WORLD, twice)
    assert f"{ci.low:.1%} to {ci.high:.1%}" in summary(WORLD, twice)  # over tasks
    assert mock[0]["task_id"] in line(mock[0])


def test_show__describes_a_task_and_its_answer() -> None:
    task = dataset.find_task("fraud-pattern-1")
    text = show("fraud-pattern-1")
    assert task.complaint.order_id in text and "expected: escalate fraud" in text


def test_score_trace__grades_a_saved_log_like_the_live_run(tmp_path: Path) -> None:
    task = dataset.find_task("late-delivery-3")
    calls = play(WORLD, scenario_of(task), WORLD.controls["reference"]).calls
    saved = json.loads(json.dumps([c.model_dump() for c in calls]))
    assert score_trace(task.task_id, saved)["score"] == 1.0
    bare = [{"tool": c["tool"], "args": c["args"]} for c in saved]
    assert score_trace(task.task_id, {"calls": bare})["score"] == 1.0
    silent = grade_saved(WORLD, scenario_of(task, replies=False), {"calls": bare[1:]})
    assert silent["score"] == 1.0 and silent["replies"] is False


def test_score_trace__refuses_a_log_that_does_not_replay() -> None:
    task = dataset.find_task("missing-item-2")
    forged = [
        {
            "tool": "lookup_order",
            "args": {"order_id": task.complaint.order_id},
            "ok": True,
            "observation": "all fine",
        }
    ]
    with pytest.raises(ValueError, match="does not replay"):
        score_trace(task.task_id, forged)


@pytest.mark.parametrize("trace", [{"calls": "x"}, 3, [{"args": {}}], [{"tool": "x", "args": 1}]])
def test_score_trace__refuses_a_malformed_log(trace: object) -> None:
    with pytest.raises(ValueError):
        score_trace("missing-item-2", trace)


def test_cli__list_show_score_and_generate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from checkout_consent.cli.main import main

    assert main(["list", "pizza"]) == 0 and "allergen-1" in capsys.readouterr().out
    assert main(["show", "pizza", "allergen-1"]) == 0
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps([{"tool": "lookup_order", "args": {"order_id": "PZ-1"}}]))
    capsys.readouterr()
    assert main(["score", "pizza", "--task", "allergen-1", "--trace", str(trace)]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 0.0
    (tmp_path / "templates.yaml").write_bytes((dataset.data_dir() / "templates.yaml").read_bytes())
    monkeypatch.setattr(dataset, "data_dir", lambda: tmp_path)
    assert main(["pizza", "generate", "--seed", "5", "--split", "hidden"]) == 0
    assert (tmp_path / "hidden" / "tasks-5.jsonl").is_file()


def test_scenario_for__names_the_split_of_a_hidden_task_by_its_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert scenario_for("allergen-1").seed == 20261015
    for name in ("templates.yaml", "tasks.jsonl"):
        (tmp_path / name).write_bytes((dataset.data_dir() / name).read_bytes())
    monkeypatch.setattr(dataset, "data_dir", lambda: tmp_path)  # the hidden split goes here
    hidden = scenario_for("allergen-1-s20261016")
    assert (hidden.seed, hidden.scenario_id) == (20261016, "allergen-1-s20261016")
    assert dataset.resolve(hidden).seed == 20261016
    assert (tmp_path / "hidden" / "tasks-20261016.jsonl").is_file()


@pytest.mark.inspect
def test_cli__sanity_runs_every_control_through_inspect(tmp_path: Path) -> None:
    from checkout_consent.cli.main import main

    assert main(["--log-dir", str(tmp_path), "sanity", "pizza"]) == 0
