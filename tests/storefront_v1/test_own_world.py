"""storefront_v1 is a world of its own beside storefront: its own task, folder, tasks data
and version, sharing storefront's concepts and its controls' names. Nothing picks a world
by a scenario id: a sample names its world, and a log cannot move a sample to the other."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from checkout_consent import storefront, storefront_v1
from checkout_consent.core.contract import Scenario
from checkout_consent.core.controls import Msg
from checkout_consent.core.offline import grade_saved, play_and_grade
from checkout_consent.families import WORLDS, control_registry, world_named
from checkout_consent.runtime.provenance import REPO_ROOT
from checkout_consent.runtime.regrade import regrade_log

V0, V1 = storefront.WORLD, storefront_v1.WORLD


def test_roster__each_world_by_its_own_name_task_and_version():
    assert world_named("storefront") is V0 and world_named("storefront_v1") is V1
    assert (V0.name, V1.name) == ("storefront", "storefront_v1")
    assert (V0.family, V1.family) == ("storefront", "storefront")
    assert (V0.world_version, V1.world_version) == ("storefront-7", "storefront-adversary_v1-5")
    assert V1.dataset.task("4").world == "storefront_v1"


def test_controls__a_family_control_plays_the_policy_of_the_samples_world():
    registry = control_registry()
    v0, v1 = V0.dataset.task("2"), V1.dataset.task("2")
    oracle = registry.get("storefront-oracle")
    assert play_and_grade(V1, v1, oracle) == play_and_grade(V1, v1, V1.controls["oracle"])
    assert play_and_grade(V0, v0, oracle) == play_and_grade(V0, v0, V0.controls["oracle"])
    with pytest.raises(ValueError, match="storefront-half_value has no policy in storefront_v1"):
        registry.get("storefront-half_value")(v1, [Msg("user", "Day 1 of 30.")])
    assert registry.refusal("storefront-half_value", "storefront_v1") == (
        "control/storefront-half_value has no policy in storefront_v1"
    )  # refused before it plays: serve-controls answers 400 with this line, Inspect one line
    assert registry.refusal("storefront-oracle", "pizza") is not None
    assert registry.refusal("storefront-oracle", "storefront_v1") is None


def test_grade_saved__each_world_grades_its_own_tools():
    ref = V1.dataset.task("4")
    record = grade_saved(V1, ref, [])
    assert record["world_version"] == V1.world_version and record["clean_run"]
    with pytest.raises(ValueError, match="has no tool 'steal'"):
        grade_saved(V1, ref, [{"tool": "steal", "args": {}}])
    with pytest.raises(ValueError):
        V1.dataset.task("adversary_v1:4")  # the old alias of a task id is no task of it


def test_task__the_old_scenario_alias_is_refused_in_one_line_naming_the_world(tmp_path: Path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai._cli.main",
            "eval",
            "checkout_consent/storefront",
            "-T",
            "scenario=adversary_v1",
            "--model",
            "control/storefront-idle",
            "--log-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode != 0 and "Traceback" not in out.stderr + out.stdout
    assert "inspect eval checkout_consent/storefront_v1" in out.stderr + out.stdout


ORACLE_LOG = REPO_ROOT / "leaderboard/submissions/storefront_v1/control-adversary_v1-oracle"


def _one_sample_log(tmp_path: Path) -> tuple[str, Any]:
    """The committed oracle submission's log cut to its seed-0 month (one sample read out of
    the zip, not ten): a real v1 Inspect log, with a context trim in its trace. Its scenario
    reference names the world as this checkout writes it (`world`; the committed log, older,
    says `family`, which is read the same)."""
    from inspect_ai.log import read_eval_log_sample

    source = str(ORACLE_LOG / "logs" / "run.eval")
    log = read_eval_log(source, header_only=True)
    log.samples = [read_eval_log_sample(source, "seed-0", 1)]
    for where in (log.samples[0].metadata["scenario"], log.samples[0].store["RunStore:scenario"]):
        where["world"] = where.pop("family", where.get("world"))
    path = str(tmp_path / "one.eval")
    write_eval_log(log, path)
    return path, log.samples[0]


def test_regrade__a_v1_log_is_regraded_by_v1_and_cannot_be_moved_to_v0(tmp_path: Path):
    path, sample = _one_sample_log(tmp_path)
    verdict = regrade_log(path, WORLDS)
    assert verdict.ok and verdict.world_version == V1.world_version
    scenario = Scenario.model_validate(sample.metadata["scenario"])
    played = play_and_grade(V1, scenario, V1.controls["oracle"])
    assert verdict.samples[0].record == played  # the logged month grades as it plays offline
    log = read_eval_log(path)
    sample = log.samples[0]
    for where in (sample.metadata["scenario"], sample.store["RunStore:scenario"]):
        where["world"], where["scenario_id"] = "storefront", "adversary_v0"
        where["version"] = V0.version
    forged = str(tmp_path / "moved.eval")
    write_eval_log(log, forged)
    failure = regrade_log(forged, WORLDS).samples[0].failure
    assert failure is not None and "not storefront_v1" in failure
    log.eval.task = "checkout_consent/storefront"
    log.eval.task_version = V0.version
    write_eval_log(log, forged)
    failure = regrade_log(forged, WORLDS).samples[0].failure
    assert failure is not None and "does not replay" in failure  # v0 has no v1 tools
    trimmed = read_eval_log(path)  # a fresh copy: the one above carries the forgery
    calls = trimmed.samples[0].store["RunStore:calls"]
    trim = next(i for i, c in enumerate(calls) if c["tool"] == "context_trimmed")
    del calls[trim]  # a trim the solver made, taken out of the trace
    write_eval_log(trimmed, forged)
    assert regrade_log(forged, WORLDS).samples[0].failure is not None
