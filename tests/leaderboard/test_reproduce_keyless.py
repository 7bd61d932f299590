"""`checkout-consent reproduce` with no key: `--cassette replay` replays a submission's
recorded traffic (its own cassettes, else the committed ones of its model), with no key and
no network; a control served over a provider's wire format (the committed `openai/<control>`
examples) is re-run against `serve-controls` on loopback; a model that needs a key it does
not have is refused in one line before anything runs, and the refusal says how to replay.
The slow layer reproduces every committed example keylessly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cassettes.preflight import KEY_VARS
from checkout_consent.cli.main import main
from checkout_consent.leaderboard.board import RECORD_NAME
from checkout_consent.leaderboard.reproduce import ReproduceError, cassette_dirs, plan
from checkout_consent.leaderboard.submission import read_card
from tests.leaderboard.helpers import SMALL, SUBMISSIONS, copy_example

FAMILY = SMALL[0]
REAL = SUBMISSIONS / FAMILY / f"model-{FAMILY}-qwen-coder-0.5b-fenced"  # a real run, one task
SERVED = SUBMISSIONS / FAMILY / SMALL[1]  # openai/<control>: a control served over the wire
EXAMPLES = sorted(p.parent for p in SUBMISSIONS.glob("*/*/submission.yaml"))


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in {v for vs in KEY_VARS.values() for v in vs} | {"LLAMA_API_KEY", "LLAMA_BASE_URL"}:
        monkeypatch.delenv(var, raising=False)


def _reproduce(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["reproduce", *argv])
    except SystemExit as exit:  # argparse's refusal
        code = int(exit.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.inspect
def test_reproduce_cassette_replay__a_real_models_run_reproduces_with_no_key(
    no_keys: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _reproduce(capsys, str(REAL), "--cassette", "replay")
    model = read_card(REAL).model.id
    assert code == 0, err
    assert out.startswith(f"REPRODUCED  {FAMILY}/{REAL.name}: {model} replayed gives "), out
    assert f"replaying {REAL / 'cassettes'}" in err and "no key, no network" in err
    assert not any(os.environ.get(v) for v in ("LLAMA_API_KEY", "OPENAI_API_KEY"))


@pytest.mark.inspect
def test_reproduce__a_served_control_reruns_against_serve_controls_with_no_key(
    no_keys: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _reproduce(capsys, str(SERVED))
    model = read_card(SERVED).model.id
    assert code == 0, err
    assert out.startswith(f"REPRODUCED  {FAMILY}/{SERVED.name}: {model} re-run gives "), out
    assert "against serve-controls on loopback" in err


def test_reproduce__a_model_without_its_key_is_refused_before_anything_runs(
    no_keys: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from checkout_consent.runtime import runner

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a run started")

    monkeypatch.setattr(runner, "run_models", never)
    monkeypatch.setenv("LLAMA_BASE_URL", "http://127.0.0.1:9/v1")
    code, out, err = _reproduce(capsys, str(REAL))
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "LLAMA_API_KEY" in err and "--cassette replay" in err


def test_reproduce__record_refuses_a_replay(capsys: pytest.CaptureFixture[str]) -> None:
    """A replay re-grades recorded traffic: it never marks the board `reproduced`."""
    code, out, err = _reproduce(capsys, str(REAL), "--cassette", "replay", "--record")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "--record marks a re-run" in err
    assert not (SUBMISSIONS.parent / RECORD_NAME).exists()


def test_reproduce_cassette_replay__without_its_own_cassettes_replays_the_committed_ones(
    tmp_path: Path,
) -> None:
    folder = copy_example(tmp_path, FAMILY, REAL.name)  # cassettes left out
    card = read_card(folder)
    committed = store.run_dir(FAMILY, card.model.id)
    assert (committed / store.MANIFEST).is_file()
    assert cassette_dirs(folder, card) == [committed]
    assert cassette_dirs(REAL, card) == [REAL / "cassettes" / committed.name]
    assert str(committed) in plan(folder, card, "replay").line


def test_reproduce_cassette_replay__no_cassette_anywhere_is_one_line_naming_it(
    tmp_path: Path,
) -> None:
    folder = copy_example(tmp_path, FAMILY, REAL.name)
    card = read_card(folder)
    other = card.model_copy(update={"model": card.model.model_copy(update={"id": "openai/x"})})
    with pytest.raises(ReproduceError) as refused:
        plan(folder, other, "replay")
    line = str(refused.value)
    assert "no cassette of openai/x" in line and str(store.run_dir(FAMILY, "openai/x")) in line
    assert "\n" not in line


def test_reproduce__a_persons_run_is_not_rerun(tmp_path: Path) -> None:
    folder = copy_example(tmp_path, FAMILY, REAL.name)
    card = read_card(folder)
    person = card.model_copy(
        update={"kind": "human", "model": card.model.model_copy(update={"id": "human/web"})}
    )
    with pytest.raises(ReproduceError, match="a person's run"):
        plan(folder, person, "off")


@pytest.mark.slow
@pytest.mark.inspect
@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reproduce_cassette_replay__every_committed_example_reproduces_with_no_key(
    folder: Path, no_keys: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _reproduce(capsys, str(folder), "--cassette", "replay")
    assert code == 0 and out.startswith("REPRODUCED  "), err + out
    assert "no key" in err
