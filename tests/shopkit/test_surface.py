"""The shopkit CLI verbs and the adapters, called as a user would."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from checkout_consent.cli.main import main as cli_main
from checkout_consent.shopkit.controls.sanity import check_sanity
from checkout_consent.shopkit.dataset import brief
from checkout_consent.shopkit.grading import grade_build, seed_dir
from checkout_consent.shopkit.sandbox import adapters, runs
from checkout_consent.shopkit.sandbox.runs import run_once

FIXER = """import os, pathlib, sys
brief = sys.argv[1]
assert brief == os.environ["SHOPKIT_BRIEF"]
if "fmt" in brief:
    money = pathlib.Path("shopkit/money.py")
    money.write_text(money.read_text().replace("math.floor(amount * 100)", "round(amount * 100)"))
print("fixed")
"""


def test_cli__list_shows_tasks_and_controls(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["list", "shopkit"]) == 0
    out = capsys.readouterr().out
    assert "task T5 (vague)" in out and "control/shopkit-reference" in out


def test_cli__grade_json_matches_the_harness(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["shopkit", "grade", "--build", str(seed_dir()), "--task", "T2", "--json"]) == 0
    shown, direct = json.loads(capsys.readouterr().out), grade_build(seed_dir(), "T2")
    assert (shown["change"], shown["regress"], shown["build_error"]) == (
        direct.change,
        direct.regress,
        direct.build_error,
    )
    assert [a["passed"] for a in shown["change_assertions"]] == [
        a.passed for a in direct.change_assertions
    ]


@pytest.mark.parametrize("where", ["missing", "a-file"])
def test_cli__grade_of_a_path_that_is_no_build_directory_exits_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    build = tmp_path / where
    if where == "a-file":
        build.write_text("not a build", encoding="utf-8")
    assert cli_main(["shopkit", "grade", "--build", str(build), "--task", "T2"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1
    assert (
        str(build) in out.err
        and ("does not exist" if where == "missing" else "is not a directory") in out.err
    )


def test_cli__run_reports_each_epoch(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli_main(
            [
                "shopkit",
                "run",
                "--task",
                "T1",
                "--adapter",
                "vandal:kills_error_path",
                "--epochs",
                "2",
                "--json",
            ]
        )
        == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert [r["epoch"] for r in rows] == [1, 2] and rows[0]["regress"] == rows[1]["regress"] < 1


def test_cli__run_refuses_to_proceed_when_sanity_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runs, "sanity", lambda: ["regress is not green on the seed"])
    assert cli_main(["shopkit", "run", "--task", "T1", "--adapter", "reference"]) == 2
    assert "refusing" in capsys.readouterr().err


def test_runs__epochs_report_the_spread() -> None:
    done = runs.run_many(["T1"], adapters.noop, epochs=2)
    assert runs.summary(done)[0].startswith("T1  change mean 0.2500  sd 0.0000")


def test_adapter__reference_completes_the_task() -> None:
    report = run_once("T4", adapters.reference).report
    assert (report.change, report.regress) == (1.0, 1.0)


def test_adapter__command_runs_an_agent_cli_in_the_build(tmp_path: Path) -> None:
    fixer = tmp_path / "fixer.py"
    fixer.write_text(FIXER)
    run = run_once("T1", adapters.command(f"{sys.executable} {fixer} {{brief}}"))
    assert run.metadata["exit_code"] == 0 and "fixed" in run.metadata["output_tail"]
    assert (run.report.change, run.report.regress) == (1.0, 1.0)


def test_adapter__command_timeouts_are_metadata(tmp_path: Path) -> None:
    slow = adapters.command("sleep 5", timeout_s=0.3)(tmp_path, brief("T1"))
    assert slow["exit_code"] is None and "timed out" in slow["output_tail"]


@pytest.mark.parametrize("template", ["no-such-agent-cli -p {brief}", "sh -c no-such-agent-cli"])
def test_adapter__command_that_cannot_start_is_an_error_not_a_score(
    tmp_path: Path, template: str
) -> None:
    with pytest.raises(adapters.RunFailed, match="the agent command could not start"):
        adapters.command(template)(tmp_path, brief("T1"))


def test_cli__run_with_an_agent_command_that_cannot_start_exits_2_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["shopkit", "run", "--task", "all", "--adapter", "command"]
    assert cli_main([*argv, "--command", "no-such-agent-cli -p {brief}"]) == 2
    out, err = capsys.readouterr()
    assert "change" not in out  # no score was printed
    assert err.strip().splitlines() == [
        "checkout-consent: the agent command could not start: 'no-such-agent-cli': "
        "No such file or directory"
    ]


def test_adapter__get_refuses_unknown_or_incomplete_specs() -> None:
    for choice in ("nope", "vandal:nope", "command", "inspect"):
        with pytest.raises((ValueError, KeyError)):
            adapters.get(choice)
    with pytest.raises(ValueError, match="needs --command"):
        adapters.get("command", command_template="  ")


def test_surface__check_sanity_names_each_failed_check() -> None:
    row = {"change": 1.0, "regress": 0.5}
    problems = check_sanity({"noop": [{"task": "T1", **row}], "reference": [{"task": "T1", **row}]})
    text = " ".join(problems)
    assert "pristine seed" in text and "regress is not green on the reference" in text


@pytest.mark.inspect
def test_adapter__inspect_plays_the_task_and_writes_the_final_tree(tmp_path: Path) -> None:
    adapter = adapters.inspect_agent("control/shopkit-reference", log_dir=str(tmp_path))
    run = run_once("T3", adapter)
    assert run.metadata["task"] == "T3" and (run.report.change, run.report.regress) == (1.0, 1.0)


def test_cli__score_grades_a_saved_tool_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from checkout_consent.shopkit.dataset import build_tree

    path = "shopkit/orders.py"
    calls = [
        {
            "tool": "write_file",
            "args": {"path": path, "content": dict(build_tree("reference"))[path]},
        },
        {"tool": "finish", "args": {"summary": "fixed the stacking"}},
    ]
    trace = tmp_path / "calls.json"
    trace.write_text(json.dumps(calls))
    assert cli_main(["score", "shopkit", "--task", "T3", "--trace", str(trace)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["change"], record["regress"], record["files_changed"]) == (1.0, 1.0, [path])


def test_score_trace__a_forged_observation_is_refused() -> None:
    from checkout_consent.core.offline import grade_saved
    from checkout_consent.shopkit import WORLD

    with pytest.raises(ValueError, match="does not replay"):
        grade_saved(
            WORLD,
            WORLD.dataset.task("T1"),
            [{"tool": "list_files", "args": {}, "observation": "forged"}],
        )


def test_offline__controls_play_the_episode_to_the_inspect_grades() -> None:
    from checkout_consent.core.offline import play_and_grade
    from checkout_consent.shopkit import WORLD

    reference = play_and_grade(WORLD, WORLD.dataset.task("T1"), WORLD.controls["reference"])
    noop = play_and_grade(WORLD, WORLD.dataset.task("T1"), WORLD.controls["noop"])
    # offline the run tools execute through WORLD.prepare_call, as under Inspect (runs == 2)
    assert (reference["change"], reference["regress"], reference["runs"]) == (1.0, 1.0, 2)
    assert (noop["change"], noop["regress"], noop["edits"]) == (0.25, 1.0, 0)
    assert reference["world_version"] == noop["world_version"] == "shopkit-2"
