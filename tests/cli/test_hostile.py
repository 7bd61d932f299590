"""Bad input on the command line: one clear line, a non-zero exit, and nothing run (the
refusals come before sanity, so these tests take no Inspect run)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import checkout_consent.cli.main as cli
from checkout_consent.cli import run as cli_run

ROOT = str(Path(__file__).resolve().parents[2])


@pytest.fixture(autouse=True)
def no_sanity(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any refusal must come before sanity: reaching it fails the test."""

    def reached(*args: object, **kwargs: object) -> None:
        raise AssertionError("sanity was reached: the input should have been refused first")

    monkeypatch.setattr(cli_run, "sanity", reached)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], why: str) -> None:
    code = cli.main(argv)
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1, err
    assert why in err and "Traceback" not in err, err


RUN = ["run", "storefront", "--model", "control/storefront-idle"]


@pytest.mark.parametrize(
    "argv, why",
    [
        ([*RUN, "--seeds", "abc"], "bad seed 'abc'"),
        ([*RUN, "--seeds", "9-0"], "runs backwards"),
        ([*RUN, "--seeds=-3"], "bad seed '-3'"),
        ([*RUN, "--seeds", "0-5,3"], "repeats"),
        ([*RUN, "--seeds", "0-999999999999"], "bad seed"),
        ([*RUN, "--seeds", "0-10000"], "pass --allow-large"),
        ([*RUN, "--seeds", "0-4999", "--epochs", "3"], "15,000 samples"),
        ([*RUN, "--epochs", "0"], "--epochs must be between"),
        ([*RUN, "--max-connections", "-1"], "--max-connections must be between"),
        ([*RUN, "--max-samples", "0"], "--max-samples must be between"),
        ([*RUN, "-T", "turns_per_day=abc"], "bad task argument"),
        ([*RUN, "-T", "turns_per_day=0"], "between 1 and 1000"),
        ([*RUN, "-T", "scenario=nosuch"], "no storefront scenario"),
        ([*RUN, "-T", "nokey=1"], "no task parameter"),
        (["run", "storefront", "--seeds", "1"], "needs --model"),
        (["run", "storefront", "--model", "control/storefront-nosuch"], "unknown control"),
        (["run", "storefront", "--model", "control/pizza-mock"], "is a pizza control"),
        (["run", "shopkit", "--model", "control/shopkit-noop", "-T", "task=T9"], "unknown shopkit"),
        (["run", "shopkit", "--model", "control/shopkit-noop", "-T", "turns=1e9"], "whole number"),
        (["run", "pizza", "--model", "control/pizza-mock", "-T", "max_turns=-1"], "whole number"),
        (["run", "pizza", "--model", "control/pizza-mock", "-T", "replies=maybe"], "true or false"),
    ],
)
def test_run__bad_input_is_one_line_before_sanity(argv, why, capsys):
    _refused(argv, capsys, why)


def test_run__cassette_record_without_a_key_fails_at_once_and_leaves_nothing(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    _refused(
        [
            "run",
            "storefront",
            "--model",
            "openai/gpt-4.1",
            "--cassette",
            "record",
            "--cassette-root",
            str(tmp_path / "c"),
            "--seeds",
            "0",
        ],
        capsys,
        "no OPENAI_API_KEY",
    )
    assert not (tmp_path / "c").exists()


def _trace_file(tmp_path: Path, name: str) -> str:
    path = tmp_path / "t.json"
    if name == "directory":
        return str(tmp_path)
    if name == "missing":
        return str(tmp_path / "none.json")
    content = {
        "binary": b"\x89PNG\x00\xff\xfe",
        "empty": b"",
        "not json": b"{calls: [",
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "huge": b"[" + b"0," * (11 * 2**20) + b"0]",
    }[name]
    path.write_bytes(content)
    return str(path)


@pytest.mark.parametrize(
    "name, why",
    [
        ("missing", "no such file"),
        ("directory", "not a regular file"),
        ("binary", "not UTF-8"),
        ("empty", "not JSON"),
        ("not json", "not JSON"),
        ("deep", "nested too deeply"),
        ("huge", "larger than 20 MB"),
    ],
)
def test_score__hostile_trace_files_are_one_line(tmp_path, name, why, capsys):
    _refused(
        ["score", "storefront", "--task", "2", "--trace", _trace_file(tmp_path, name)], capsys, why
    )


@pytest.mark.parametrize(
    "calls, why",
    [
        ([{"tool": "steal", "args": {}}], "has no tool 'steal'"),
        ([{"tool": "set_price", "args": {"product_id": "lamp", "price": [1]}}], "must be a number"),
        (
            [
                {
                    "tool": "place_order",
                    "args": {"supplier_id": "zenith", "product_id": "lamp", "quantity": True},
                }
            ],
            "whole number",
        ),
        ({"calls": "x"}, "a list of calls"),
    ],
)
def test_score__unknown_tools_and_wrong_types_are_refused_not_scored(tmp_path, calls, why, capsys):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(calls))
    code = cli.main(["score", "storefront", "--task", "2", "--trace", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1


def test_score__an_empty_trace_is_the_idle_run(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text("[]")
    assert cli.main(["score", "storefront", "--task", "2", "--trace", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["cash_final"] == 900.0


@pytest.mark.slow
@pytest.mark.inspect
def test_run__ctrl_c_stops_a_run_within_seconds(tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "checkout_consent.cli",
            "--log-dir",
            str(tmp_path),
            "run",
            "storefront",
            "--model",
            "control/storefront-oracle",
            "--seeds",
            "0-499",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(10)  # well into sanity's Inspect runs
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the run did not stop within 60 s of Ctrl-C") from None
    assert proc.returncode == 130 and err.strip().endswith("interrupted"), err[-2000:]


@pytest.mark.inspect
@pytest.mark.parametrize(
    "task, arg",
    [
        ("storefront", "seeds=abc"),
        ("storefront", "turns_per_day=x"),
        ("shopkit", "task=T9"),
        ("pizza", "max_turns=0"),
    ],
)
@pytest.mark.slow
def test_inspect_eval__a_bad_task_argument_is_one_line(tmp_path, task, arg):
    env = {**os.environ, "PYTHONPATH": ROOT}
    out = subprocess.run(
        [
            "inspect",
            "eval",
            f"checkout_consent/{task}",
            "--model",
            f"control/{task}-noop" if task != "storefront" else "control/storefront-idle",
            "-T",
            arg,
            "--log-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    text = " ".join((out.stdout + out.stderr).split())
    assert out.returncode != 0 and "bad task argument" in text, text[-2000:]
    assert "Traceback" not in text
