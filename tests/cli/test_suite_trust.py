"""A resumed `suite` never trusts a stored score. Each test plants a tampered log in the log
dir of the run being resumed (the idle control's): its stored scores rewritten, a `started`
partial log holding one forged sample, the reference control's log relabelled as the idle
control's. Each is named in one line and set aside, its samples are played again, and the
summary reports the true headline (the idle control's own, from an untampered run). Both
real logs are made once per module by the suite itself; sanity is skipped (not the subject)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from checkout_consent.cli.main import main
from checkout_consent.families import WORLDS

pytestmark = pytest.mark.inspect

# a pure world alone in its family (its controls' suite plays it alone): the cheapest real
# eval set
WORLD = next(f for f in WORLDS if f.pure and [w.family for w in WORLDS].count(f.family) == 1)
IDLE = f"control/{WORLD.family}-{WORLD.controls.sanity[0]}"
REFERENCE = f"control/{WORLD.family}-{WORLD.controls.reference}"
LIMIT = "2"


def _suite(log_dir: Path, model: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--log-dir", str(log_dir), "suite", "--model", model, "--limit", LIMIT])
    code = code if code is not None else 0
    return code, capsys.readouterr().err


def _summary(log_dir: Path) -> dict[str, Any]:
    doc = json.loads((log_dir / "suite-summary.json").read_text())
    (row,) = doc["worlds"]
    return dict(row)


def _only_log(log_dir: Path) -> Path:
    (path,) = log_dir.glob("*.eval")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The idle and the reference control's honest suite logs (a module's one real run of each)."""
    import checkout_consent.cli.run as run_module

    patch = pytest.MonkeyPatch()
    patch.setattr(run_module, "sanity", lambda world: None)
    out = {}
    for model in (IDLE, REFERENCE):
        log_dir = tmp_path_factory.mktemp(model.rsplit("-", 1)[-1])
        assert main(["--log-dir", str(log_dir), "suite", "--model", model, "--limit", LIMIT]) == 0
        out[model] = log_dir
    patch.undo()
    return out


@pytest.fixture(autouse=True)
def _no_sanity(monkeypatch: pytest.MonkeyPatch) -> None:
    import checkout_consent.cli.run as run_module

    monkeypatch.setattr(run_module, "sanity", lambda world: None)


def _plant(runs: dict[str, Path], model: str, tmp: Path, edit: Any) -> tuple[Path, str]:
    """A fresh log dir holding `model`'s honest log, edited by `edit(log)`."""
    log_dir = tmp / "resumed"
    log_dir.mkdir()
    source = _only_log(runs[model])
    log = read_eval_log(str(source))
    edit(log)
    forged = log_dir / source.name
    write_eval_log(log, str(forged))
    return log_dir, forged.name


def _true_headline(runs: dict[str, Path]) -> Any:
    return _summary(runs[IDLE])["headline"]["value"]


def _assert_resumed_truly(runs: dict[str, Path], log_dir: Path, forged: str, err: str) -> None:
    row = _summary(log_dir)
    named = [line for line in err.splitlines() if line.startswith(f"suite: refused log {forged}")]
    assert len(named) == 1, err
    assert row["status"] == "success" and row["log"] != forged and row["refused"] is None
    assert row["headline"]["value"] == _true_headline(runs) and row["samples"] == int(LIMIT)
    assert (log_dir / f"{forged}.refused").is_file()


def _rewrite_scores(log: EvalLog) -> None:
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            score.value = {k: 1.0 for k in score.value} | {"breached": 0.0}  # type: ignore[union-attr]


def test_suite_resume__a_log_with_rewritten_stored_scores_is_replayed(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _true_headline(runs) != 1.0  # the rewrite would move the headline
    log_dir, forged = _plant(runs, IDLE, tmp_path, _rewrite_scores)
    code, err = _suite(log_dir, IDLE, capsys)
    assert code == 0 and "stored score is not its re-grade" in err, err
    _assert_resumed_truly(runs, log_dir, forged, err)


def test_suite_resume__a_started_partial_log_with_a_forged_sample_is_replayed(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = read_eval_log(str(_only_log(runs[REFERENCE])))

    def forge(log: EvalLog) -> None:
        """One sample kept, its trace and score the reference's (the conversation idle)."""
        log.status, log.results = "started", None
        sample = (log.samples or [])[0]
        twin = next(s for s in reference.samples or [] if s.id == sample.id)
        sample.store = twin.store
        sample.scores = twin.scores
        log.samples = [sample]

    log_dir, forged = _plant(runs, IDLE, tmp_path, forge)
    code, err = _suite(log_dir, IDLE, capsys)
    assert code == 0 and "the trace is not the conversation's run" in err, err
    _assert_resumed_truly(runs, log_dir, forged, err)


def test_suite_resume__the_reference_log_relabelled_as_another_model_is_replayed(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def relabel(log: EvalLog) -> None:
        log.eval.model = IDLE
        log.stats.model_usage = {IDLE: log.stats.model_usage[REFERENCE]}
        for sample in log.samples or []:
            sample.model_usage = {IDLE: sample.model_usage[REFERENCE]}

    log_dir, forged = _plant(runs, REFERENCE, tmp_path, relabel)
    code, err = _suite(log_dir, IDLE, capsys)
    assert code == 0 and f"was played by '{REFERENCE}'" in err, err
    _assert_resumed_truly(runs, log_dir, forged, err)


def test_suite_resume__an_honest_log_is_reused_as_it_stands(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_dir = tmp_path / "honest"
    shutil.copytree(runs[IDLE], log_dir)
    before = _only_log(log_dir).name
    code, err = _suite(log_dir, IDLE, capsys)
    assert code == 0 and "refused" not in err, err
    row = _summary(log_dir)
    assert row["log"] == before and row["headline"]["value"] == _true_headline(runs)


def _stop_first_sample(log: EvalLog) -> None:
    from inspect_ai.log import EvalError

    sample = (log.samples or [])[0]
    sample.scores = None
    sample.error = EvalError(
        message="RuntimeError('human/web: the run was stopped by the player')",
        traceback="",
        traceback_ansi="",
    )


def test_suite_resume__a_finished_log_with_an_unscored_sample_is_played_again(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sample a person stopped (or a provider gave up on) has no score: the log is set
    aside saying so, and the sample is played again (never reported as a forged score)."""
    log_dir, forged = _plant(runs, IDLE, tmp_path, _stop_first_sample)
    code, err = _suite(log_dir, IDLE, capsys)
    assert code == 0 and "has no score (it ended in an error: RuntimeError('human/web: " in err
    assert "it is played again" in err and "stored score is not its re-grade" not in err, err
    _assert_resumed_truly(runs, log_dir, forged, err)


def _refused_whole(runs: dict[str, Path], tmp: Path, edit: Any, capsys: Any) -> str:
    """A log of another run of the same task: the resume is refused in one line, exit 2,
    and the log dir is left as it was (the log neither renamed nor summarised)."""
    log_dir, forged = _plant(runs, IDLE, tmp, edit)
    before = sorted(p.name for p in log_dir.iterdir())
    code, err = _suite(log_dir, IDLE, capsys)
    lines = [line for line in err.splitlines() if "refused to resume" in line]
    assert code == 2 and len(lines) == 1 and forged in lines[0], err
    assert "resume it with its own arguments" in lines[0]
    assert sorted(p.name for p in log_dir.iterdir()) == before
    return lines[0]


def test_suite_resume__a_log_of_another_task_version_is_refused_in_one_line(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def bump(log: EvalLog) -> None:
        log.eval.task_version = "999"

    assert "its task version '999'" in _refused_whole(runs, tmp_path, bump, capsys)


def test_suite_resume__a_log_of_other_task_arguments_is_refused_in_one_line(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def other(log: EvalLog) -> None:
        log.eval.task_args_passed = {**(log.eval.task_args_passed or {}), "max_turns": 3}

    assert "its task arguments" in _refused_whole(runs, tmp_path, other, capsys)


def test_suite_resume__a_sample_whose_input_is_not_the_tasks_is_replayed(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def swap_input(log: EvalLog) -> None:
        (log.samples or [])[0].input = "a brief the task never gave"

    log_dir, forged = _plant(runs, IDLE, tmp_path, swap_input)
    code, err = _suite(log_dir, IDLE, capsys)
    assert code == 0 and "is not this task's sample (its input or scenario differ)" in err, err
    _assert_resumed_truly(runs, log_dir, forged, err)
