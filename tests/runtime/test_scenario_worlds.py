"""A variant: a world of its own inside a family (storefront's adversary_v1), with its own
registered task. The roster picks the world by the sample's reference wherever one is held;
a log cannot move a sample from one world to the other."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from checkout_consent.core.controls import Msg
from checkout_consent.core.offline import grade_saved, play_and_grade
from checkout_consent.families import (
    WORLDS,
    control_registry,
    world_for,
    world_of_args,
    worlds_of,
)
from checkout_consent.runtime.regrade import regrade_log
from checkout_consent.runtime.runner import run_models
from checkout_consent.storefront import SPEC
from checkout_consent.storefront import grader as v0_grader
from checkout_consent.storefront.v1 import SPEC_V1
from checkout_consent.storefront.v1 import grader as v1_grader


def test_world_for__names_each_world_and_falls_back_to_the_family():
    assert world_for("storefront", "adversary_v1") is SPEC_V1
    for other in ("adversary_v0", None, 7, "nope"):
        assert world_for("storefront", other) is SPEC
    assert worlds_of("storefront") == (SPEC, SPEC_V1)
    assert (SPEC.world_version, SPEC_V1.world_version) == (
        f"storefront-{v0_grader.VERSION}",
        f"storefront-adversary_v1-{v1_grader.VERSION}",
    )
    assert world_of_args("storefront", {"scenario": "adversary_v1", "seeds": "0"}) is SPEC_V1
    assert (SPEC.task, SPEC_V1.task) == ("storefront", "storefront_v1")


def test_dispatching_controls__play_the_policy_of_the_samples_world():
    registry = control_registry()
    v0, v1 = SPEC.scenario_for("2"), SPEC_V1.scenario_for("2")
    oracle = registry.get("storefront-oracle")
    assert play_and_grade(SPEC_V1, v1, oracle) == play_and_grade(
        SPEC_V1, v1, SPEC_V1.controls["oracle"]
    )
    assert play_and_grade(SPEC, v0, oracle) == play_and_grade(SPEC, v0, SPEC.controls["oracle"])
    with pytest.raises(
        ValueError, match="storefront-half_value has no policy for scenario adversary_v1"
    ):
        registry.get("storefront-half_value")(v1, [Msg("user", "Day 1 of 30.")])


def test_grade_saved__a_v1_trace_is_graded_by_v1_and_a_v0_tool_is_not_a_v1_tool():
    ref = SPEC.scenario_for("adversary_v1:4")
    world = world_for("storefront", ref.scenario_id)
    record = grade_saved(world, ref, [])
    assert record["world_version"] == SPEC_V1.world_version and record["clean_run"]
    with pytest.raises(ValueError, match="has no tool 'steal'"):
        grade_saved(world, ref, [{"tool": "steal", "args": {}}])


def test_task__hint_is_refused_for_adversary_v1_in_one_line(tmp_path: Path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai._cli.main",
            "eval",
            "checkout_consent/storefront",
            "-T",
            "scenario=adversary_v1",
            "-T",
            "hint=true",
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
    assert "adversary_v1 has none" in out.stderr + out.stdout


@pytest.mark.inspect
def test_regrade__a_v1_log_is_regraded_by_v1_and_cannot_be_moved_to_v0(tmp_path: Path):
    run = run_models(
        SPEC_V1,
        ["control/storefront-cautious"],
        task_args={"seeds": "5", "scenario": "adversary_v1"},
        log_dir=tmp_path,
    )[0]
    verdict = regrade_log(run.log_path, WORLDS)
    assert verdict.ok and verdict.world_version == SPEC_V1.world_version
    assert verdict.samples[0].record == run.records[0]
    log = read_eval_log(run.log_path)
    sample = log.samples[0]
    for where in (sample.metadata["scenario"], sample.store["RunStore:scenario"]):
        where["scenario_id"] = "adversary_v0"
        where["version"] = SPEC.version
    forged = str(tmp_path / "moved.eval")
    write_eval_log(log, forged)
    failure = regrade_log(forged, WORLDS).samples[0].failure
    assert failure is not None and "does not replay" in failure  # v0 has no v1 tools
    log = read_eval_log(run.log_path)
    trimmed = copy.deepcopy(log)
    calls = trimmed.samples[0].store["RunStore:calls"]
    trim = next(i for i, c in enumerate(calls) if c["tool"] == "context_trimmed")
    del calls[trim]  # a trim the solver made, taken out of the trace
    write_eval_log(trimmed, forged)
    assert regrade_log(forged, WORLDS).samples[0].failure is not None
