"""`checkout-consent suite`: every world of the roster for one model as one Inspect eval set.
The command it prints is the same eval set as plain `inspect eval-set` (a run of either is
resumed by the other, sample by sample); shards cover every sample once; bad input is one
line and runs nothing. The plain command and the SIGKILL resume are in the slow layer."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.cli import suite
from checkout_consent.cli.common import UsageError
from checkout_consent.cli.main import main
from checkout_consent.core.summary import figure
from checkout_consent.families import WORLDS
from checkout_consent.runtime.runner import build_task, log_records

# a pure world alone in its family (its control's suite plays it alone): the cheapest real
# eval set
WORLD = next(f for f in WORLDS if f.pure and [w.family for w in WORLDS].count(f.family) == 1)
MODEL = f"control/{WORLD.family}-{WORLD.controls.reference}"
OTHER = next(w for w in WORLDS if w.family != WORLD.family)  # a world of another family


def _ids(world: Any, arguments: dict[str, Any] | None = None) -> list[str]:
    return [str(s.id) for s in build_task(world, arguments).dataset]


def _suite(capsys: pytest.CaptureFixture[str], log_dir: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--log-dir", str(log_dir), "suite", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _run(tmp: Path, *line: str) -> subprocess.CompletedProcess[str]:
    """A command from tmp (outside the checkout: Inspect sees the installed package, as a
    user's shell does), Inspect's sample buffers under tmp."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "NO_COLOR": "1"}
    done = subprocess.run(line, cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.mark.inspect
def test_suite__plays_the_worlds_and_writes_their_headlines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default run's suite: one world, one sample, in process; the summary on stdout
    is the file next to the logs, with the headline `run` prints."""
    from inspect_ai.log import read_eval_log

    logs = tmp_path / "logs"
    code, out, err = _suite(capsys, logs, "--model", MODEL, "--limit", "1", "--json")
    doc = json.loads(out)  # stdout is the JSON alone; progress went to stderr
    assert (
        code == 0
        and "sanity" in err
        and doc == json.loads((logs / "suite-summary.json").read_text())
    )
    (row,) = doc["worlds"]
    records = log_records(read_eval_log(str(logs / row["log"]), header_only=True))
    got = figure(WORLD, records)
    assert got is not None and row["samples"] == len(records) == 1
    assert (row["world"], row["world_version"]) == (WORLD.name, WORLD.world_version)
    assert row["headline"]["value"] == got.value and row["headline"][
        "text"
    ] == WORLD.headline.describe(got)
    assert doc["complete"] and doc["superseded_logs"] == [] and doc["model"] == MODEL
    # the eval set's model stays in its own context: another family's task still builds
    assert _ids(OTHER)


@pytest.mark.slow
@pytest.mark.inspect
def test_suite__is_the_plain_inspect_eval_set_it_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The printed `inspect eval-set` command plays one sample; the suite, asked for two in
    the same log dir, reuses that sample (same uuid and start) and plays the other."""
    from inspect_ai.log import read_eval_log

    logs = tmp_path / "logs"
    code, printed, _ = _suite(capsys, logs, "--model", MODEL, "--limit", "1", "--print-command")
    assert code == 0 and not logs.exists()  # printed, nothing run
    line = shlex.split(printed)
    assert line[:3] == ["inspect", "eval-set", f"checkout_consent/{WORLD.name}"]
    _run(tmp_path, str(Path(sys.executable).with_name("inspect")), *line[1:], "--display", "none")
    (first,) = [read_eval_log(str(p)) for p in logs.glob("*.eval")]
    (played,) = first.samples
    cli = [sys.executable, "-m", "checkout_consent.cli", "--log-dir", str(logs), "suite"]
    out = _run(tmp_path, *cli, "--model", MODEL, "--limit", "2", "--json").stdout
    doc = json.loads(out)  # stdout is the JSON alone
    assert doc == json.loads((logs / "suite-summary.json").read_text())
    (row,) = doc["worlds"]
    log = read_eval_log(str(logs / row["log"]))
    assert log.eval.task_id == first.eval.task_id  # the same task of the same eval set
    assert sorted(str(s.id) for s in log.samples) == sorted(_ids(WORLD)[:2])
    reused = next(s for s in log.samples if s.id == played.id)
    assert (reused.uuid, reused.started_at) == (played.uuid, played.started_at)  # not re-run
    records = log_records(log)
    got = figure(WORLD, records)
    assert row["samples"] == len(records) == 2 and got is not None
    assert row["headline"]["value"] == got.value and row["headline"]["runs"] == 2
    assert row["headline"]["text"] == WORLD.headline.describe(got)  # the line `run` prints
    assert doc["complete"] and doc["superseded_logs"] == [] and doc["model"] == MODEL


def test_suite__a_familys_control_plays_every_world_of_its_family_and_no_other() -> None:
    """Worlds of one family share its controls (`control/<family>-<name>` plays each world's
    own policy): with no --world, the suite of such a control plays each of its family's
    worlds, in roster order; a world of another family is refused in one line."""
    for family in dict.fromkeys(w.family for w in WORLDS):
        own = [w for w in WORLDS if w.family == family]
        model = f"control/{family}-{own[0].controls.reference}"
        args = argparse.Namespace(model=model, world=None, shard=None)
        assert suite.chosen_worlds(args) == own, family
        for world in own:  # each by --world too
            args = argparse.Namespace(model=model, world=[world.name], shard=None)
            assert suite.chosen_worlds(args) == [world]
        other = next(w for w in WORLDS if w.family != family)
        args = argparse.Namespace(model=model, world=[other.name], shard=None)
        with pytest.raises(UsageError, match=f"is a {family} control; it cannot play"):
            suite.chosen_worlds(args)
    assert max(len([w for w in WORLDS if w.family == f.family]) for f in WORLDS) > 1


def test_suite_shard__shards_of_every_pure_world_cover_its_samples_once() -> None:
    for world in (w for w in WORLDS if w.pure):
        ids = _ids(world)
        for n in (1, 2, 3, 7):
            shards = [suite.shard_of(ids, (k, n)) for k in range(1, n + 1)]
            assert sorted(i for s in shards for i in s) == sorted(ids), (world.name, n)
            assert max(map(len, shards)) - min(map(len, shards)) <= 1


def test_suite__a_task_without_arguments_plays_the_public_set() -> None:
    """The suite passes a task no argument it was not given (so its tasks are those of
    plain `inspect eval-set`): every task's defaults must be its public set."""
    for world in WORLDS:
        assert _ids(world, {}) == _ids(world, dict(world.dataset.public_args)), world.name


def test_suite_print_command__names_every_world_and_shards_only_the_pure_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, printed, _ = _suite(capsys, tmp_path, "--model", "openai/any", "--print-command")
    line = shlex.split(printed)
    assert code == 0 and line[2 : 2 + len(WORLDS)] == [f"checkout_consent/{w.name}" for w in WORLDS]
    assert line[line.index("--max-tasks") + 1] == str(len(WORLDS))
    code, printed, _ = _suite(
        capsys, tmp_path, "--model", "openai/any", "--shard", "2/3", "--print-command"
    )
    line = shlex.split(printed)
    pure = [w for w in WORLDS if w.pure]
    assert code == 0 and line[2 : 2 + len(pure)] == [f"checkout_consent/{w.name}" for w in pure]
    chosen = line[line.index("--sample-id") + 1].split(",")
    want = [f"checkout_consent/{w.name}:{i}" for w in pure for i in suite.shard_of(_ids(w), (2, 3))]
    assert chosen == want


@pytest.mark.parametrize(
    "args",
    [
        ["--shard", "0/2"],
        ["--shard", "3/2"],
        ["--shard", "1of2"],
        ["--limit", "0"],
        ["--limit", "1", "--shard", "1/2"],
        ["--epochs", "100000"],
        ["-T", "nosuch=1"],
        ["-T", "scenario=x"],
        ["-T", "novalue"],
        ["--world", OTHER.name],  # a control of one family cannot play another's world
        ["--world", "nosuch"],
    ],
)
def test_suite__refuses_bad_input_in_one_line_and_runs_nothing(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    try:
        code = main(["--log-dir", str(logs), "suite", "--model", MODEL, *args])
    except SystemExit as exit:  # argparse's refusal
        code = int(exit.code or 0)
    out = capsys.readouterr()
    assert code == 2 and not logs.exists() and out.out == ""
    assert len(out.err.strip().splitlines()) == 1, out.err
    assert "Traceback" not in out.err


def test_suite_shard__refuses_a_world_that_is_not_pure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from checkout_consent import families

    impure = tuple(dataclasses.replace(w, pure=False) if w == WORLD else w for w in WORLDS)
    monkeypatch.setattr(families, "WORLDS", impure)
    monkeypatch.setattr(suite, "WORLDS", impure)
    args = ["--model", MODEL, "--world", WORLD.name, "--shard", "1/2", "--print-command"]
    code, out, err = _suite(capsys, tmp_path / "logs", *args)
    assert code == 2 and out == "" and f"{WORLD.name} is not pure" in err
    code, out, err = _suite(capsys, tmp_path / "logs", "--model", MODEL, "--shard", "1/2")
    assert code == 2 and out == "" and "no world" in err  # the pure worlds of its family: none


def test_suite_print_command__is_the_plain_command_the_suite_manual_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/suite.md shows the plain `inspect eval-set` of its first suite command: it must
    be what the suite prints for it today (a world added to the roster changes both)."""
    from checkout_consent.runtime.provenance import REPO_ROOT

    lines = (REPO_ROOT / "docs" / "suite.md").read_text().splitlines()
    (shown,) = [line for line in lines if line.startswith("inspect eval-set ")]
    words = shlex.split(shown)
    model, log_dir = words[words.index("--model") + 1], words[words.index("--log-dir") + 1]
    code, printed, _ = _suite(capsys, Path(log_dir), "--model", model, "--print-command")
    assert code == 0 and printed.strip() == shown
