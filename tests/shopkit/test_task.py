"""The shopkit Inspect task end to end with the control models, and its replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval

from checkout_consent.cli.main import main as cli_main
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.trace import Call, replay
from checkout_consent.runtime.store import RunStore
from checkout_consent.shopkit import WORLD
from checkout_consent.shopkit.dataset import brief
from checkout_consent.shopkit.record import ShopkitRecord
from checkout_consent.shopkit.sandbox import adapters, execution, prepare
from checkout_consent.shopkit.sandbox.runs import run_once
from checkout_consent.shopkit.task import shopkit
from checkout_consent.shopkit.vandal import MODES

pytestmark = pytest.mark.inspect
MODELS = [
    "control/shopkit-reference",
    "control/shopkit-noop",
    *(f"control/shopkit-vandal-{mode}" for mode in MODES),
]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = inspect_eval(
        shopkit(task="T1"),
        model=MODELS,
        display="none",
        log_dir=str(tmp_path_factory.mktemp("logs")),
        score_display=False,
    )
    return {log.eval.model: log for log in out}


def _score(log: Any) -> Any:
    assert log.status == "success"
    return next(iter(log.samples[0].scores.values()))


def test_task__reference_control_scores_top_marks(logs: dict[str, Any]) -> None:
    score = _score(logs["control/shopkit-reference"])
    assert score.value == {"change": 1.0, "regress": 1.0, "regress_extra": 1.0, "integrity": 1.0}
    assert score.metadata["record"]["finished"] and score.metadata["record"]["runs"] == 2
    assert score.metadata["record"]["world_version"] == "shopkit-2"


def test_task__provenance_is_in_the_score_metadata_not_the_record(logs: dict[str, Any]) -> None:
    score = _score(logs["control/shopkit-reference"])
    provenance, record = score.metadata["provenance"], score.metadata["record"]
    assert provenance["model_id"] == "control/shopkit-reference" and provenance["turns"] >= 5
    assert not {"model_id", "epoch", "input_tokens", "turns_used", "suite_git_sha"} & set(record)


def test_task__the_sample_is_a_reference_and_the_opening_has_no_side_channel(
    logs: dict[str, Any],
) -> None:
    sample = logs["control/shopkit-noop"].samples[0]
    assert sample.id == "T1" and sample.metadata["scenario"]["params"] == {}
    opening = sample.input if isinstance(sample.input, str) else sample.input[0].text
    assert "Run:" not in opening and opening.startswith(brief("T1"))
    assert opening.endswith(
        "The build is shopkit/ (the package) and data/ (the dataset). "
        "Call finish when you are done."
    )


def test_task__noop_control_fails_change_and_keeps_regress(logs: dict[str, Any]) -> None:
    score = _score(logs["control/shopkit-noop"])
    assert score.value["change"] < 1.0 and score.value["regress"] == 1.0


def test_task__an_unparseable_build_scores_zero_with_its_error(logs: dict[str, Any]) -> None:
    score = _score(logs["control/shopkit-vandal-syntax_error"])
    assert (score.value["change"], score.value["regress"]) == (0.0, 0.0)
    assert "SyntaxError" in score.metadata["record"]["build_error"]


@pytest.mark.parametrize("mode", list(MODES))
def test_task__vandal_controls_match_the_vandal_adapter(logs: dict[str, Any], mode: str) -> None:
    through_inspect = _score(logs[f"control/shopkit-vandal-{mode}"]).value
    direct = run_once("T1", adapters.vandal(mode)).report
    assert (through_inspect["change"], through_inspect["regress"]) == (
        direct.change,
        direct.regress,
    )


def _trace(log: Any) -> tuple[Scenario, list[Call]]:
    sample = log.samples[0]
    calls = [Call.model_validate(c) for c in sample.store_as(RunStore).calls]
    return Scenario.model_validate(sample.metadata["scenario"]), calls


def test_task__runs_are_recorded_and_replay_never_executes_them(
    logs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("replay executed a recorded run")

    monkeypatch.setattr(execution, "run_command", refuse)
    monkeypatch.setattr(prepare, "run_command", refuse)
    scenario, calls = _trace(logs["control/shopkit-reference"])
    runs = [c for c in calls if c.tool in ("run_cli", "run_python")]
    assert runs and all("result" in c.args for c in runs)
    result = replay(WORLD.actions, WORLD.initial(scenario), calls)
    assert result.mismatch is None
    record = WORLD.grade(scenario, result, ())
    assert isinstance(record, ShopkitRecord)
    assert (record.change, record.regress) == (1.0, 1.0)


def test_task__a_tampered_run_output_fails_replay(logs: dict[str, Any]) -> None:
    scenario, calls = _trace(logs["control/shopkit-reference"])
    index = next(i for i, c in enumerate(calls) if c.tool == "run_cli")
    forged = calls[index].model_copy(update={"observation": "all tests pass"})
    calls[index] = forged
    assert replay(WORLD.actions, WORLD.initial(scenario), calls).mismatch is not None


def test_cli__sanity_shopkit_passes_through_inspect(tmp_path: Path) -> None:
    assert cli_main(["--log-dir", str(tmp_path), "sanity", "shopkit"]) == 0


def _tool_call(i: int, tool: str, **args: Any) -> Any:
    from inspect_ai.model import ModelOutput, ModelUsage

    out = ModelOutput.for_tool_call("mockllm/model", tool, args, tool_call_id=f"c{i}")
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out


def test_tools__run_tools_trace_refusals_and_real_output(tmp_path: Path) -> None:
    outputs = [
        _tool_call(0, "run_cli", args="'unclosed"),
        _tool_call(1, "run_python", code="from shopkit import money\nprint(money.fmt(2.5))"),
        _tool_call(2, "run_cli", args="total O9"),
        _tool_call(3, "finish", summary="looked around"),
    ]
    log = inspect_eval(
        shopkit(task="T2"),
        model="mockllm/model",
        display="none",
        model_args={"custom_outputs": outputs},
        log_dir=str(tmp_path),
    )[0]
    scenario, calls = _trace(log)
    assert [c.ok for c in calls] == [False, True, True, True]
    assert "result" not in calls[0].args and "cannot be split" in calls[0].observation
    assert calls[1].args["result"] == {"exit_code": 0, "output": "$2.50\n"}
    assert calls[2].args["result"]["exit_code"] == 2
    assert _score(log).value["integrity"] == 1.0
