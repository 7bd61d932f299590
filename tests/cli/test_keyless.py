"""The suite and `run` without a key: `control/reference` plays every world on the roster
offline (each world's reference control), ending with the usual headline summary; a model
whose provider needs a key that is not set is refused in one line before any sanity work
(`cassettes.preflight.check_key`, the check a recording makes), and a key that is set, or a
provider that signs in otherwise, goes on to sanity."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from checkout_consent.cassettes.preflight import KEY_VARS
from checkout_consent.cli import run as cli_run
from checkout_consent.cli import suite
from checkout_consent.cli.main import main
from checkout_consent.core.contract import World
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.families import WORLDS, control_registry, reference_of
from checkout_consent.runtime.runner import RunFailed

REFERENCE = "control/reference"
ALL_KEY_VARS = {v for vars_ in KEY_VARS.values() for v in vars_}
# two families' cheapest worlds (each family's first pure world): one eval set, one model,
# worlds of different families
FIRST_PURE: dict[str, World] = {}
for _w in WORLDS:
    if _w.pure:
        FIRST_PURE.setdefault(_w.family, _w)
PURE = list(FIRST_PURE.values())[:2]


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ALL_KEY_VARS | {"LLAMA_API_KEY", "LLAMA_BASE_URL", "GROQ_API_KEY"}:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)


@pytest.fixture
def sanity_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every world sanity was asked to play (`suite` and `run` both call `cli.run.sanity`);
    it then stops the command (as a failed sanity would)."""
    calls: list[str] = []

    def trap(world: World, *args: object) -> None:
        calls.append(world.name)
        raise RunFailed("sanity reached")

    monkeypatch.setattr(cli_run, "sanity", trap)
    return calls


def _main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_control_reference__plays_each_worlds_reference_control_in_every_family() -> None:
    registry = control_registry()
    assert registry.owner("reference") is None  # it belongs to no family: it plays them all
    args = argparse.Namespace(model=REFERENCE, world=None, shard=None)
    assert suite.chosen_worlds(args) == list(WORLDS)
    for world in WORLDS:  # one episode each, offline: the same record as its own control's
        scenario = cli_run.task_scenarios(world)[0]
        own = world.controls[world.controls.reference]
        mine = play_and_grade(world, scenario, registry.get("reference"))
        assert mine == play_and_grade(world, scenario, own), world.name
    assert suite.players(REFERENCE, list(WORLDS)).split(", ")[0] == (
        f"{WORLDS[0].name} ({reference_of(WORLDS[0])})"
    )


@pytest.mark.inspect
def test_suite_control_reference__plays_worlds_of_two_families_with_no_key(
    no_keys: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One eval set, no key, two families' worlds, each played by its reference control
    (the record equals that control's offline), ending with the per-world summary."""
    from inspect_ai.log import read_eval_log

    logs = tmp_path / "logs"
    worlds = [a for world in PURE for a in ("--world", world.name)]
    code, out, err = _main(
        capsys, "--log-dir", str(logs), "suite", "--model", REFERENCE, *worlds, "--limit", "1"
    )
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0].split() == ["world", "samples", "headline"]
    assert [line.split()[0] for line in lines[1:]] == [s.name for s in PURE]
    assert all(" 1  " in line for line in lines[1:])  # one sample each, with its headline
    doc = json.loads((logs / "suite-summary.json").read_text())
    assert doc["complete"] and doc["model"] == REFERENCE
    for world, row in zip(PURE, doc["worlds"], strict=True):
        assert row["status"] == "success" and row["headline"] is not None, row
        (sample,) = read_eval_log(str(logs / row["log"])).samples
        scenario = Scenario.model_validate(sample.metadata["scenario"])
        want = play_and_grade(world, scenario, world.controls[world.controls.reference])
        got = next(iter(sample.scores.values())).metadata["record"]
        assert {k: got[k] for k in want if k != "provenance"} == {
            k: v for k, v in want.items() if k != "provenance"
        }
    assert f"{PURE[0].name} ({reference_of(PURE[0])})" in err


@pytest.mark.parametrize(
    "model, extra, var",
    [
        ("openai/gpt-4.1", [], "OPENAI_API_KEY"),
        ("anthropic/claude-sonnet-4-5", [], "ANTHROPIC_API_KEY"),
        ("google/gemini-2.5-pro", [], "GOOGLE_API_KEY"),
        ("groq/llama-3.1-8b", [], "GROQ_API_KEY"),
        (
            "openai-api/llama/qwen",
            ["--model-base-url", "http://127.0.0.1:8081/v1"],
            "LLAMA_API_KEY",
        ),
        ("openai-api/llama/qwen", [], "LLAMA_BASE_URL"),
    ],
)
@pytest.mark.parametrize("verb", [["suite"], ["run", PURE[0].name]])
def test_no_key__refused_in_one_line_before_any_sanity(
    no_keys: None,
    sanity_calls: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    verb: list[str],
    model: str,
    extra: list[str],
    var: str,
) -> None:
    logs = tmp_path / "logs"
    code, out, err = _main(capsys, "--log-dir", str(logs), *verb, "--model", model, *extra)
    assert sanity_calls == [] and code == 2, err
    assert out == "" and len(err.strip().splitlines()) == 1 and var in err, err
    assert not logs.exists()


@pytest.mark.parametrize(
    "model, env",
    [
        ("openai/gpt-4.1", {"OPENAI_API_KEY": "sk-test"}),
        ("google/vertex/gemini-2.5-pro", {}),  # Vertex signs in with Google credentials
        (reference_of(PURE[0]), {}),
        (REFERENCE, {}),
    ],
)
@pytest.mark.parametrize("verb", [["suite"], ["run", PURE[0].name]])
def test_a_model_that_needs_no_key_here__goes_on_to_sanity(
    no_keys: None,
    sanity_calls: list[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    verb: list[str],
    model: str,
    env: dict[str, str],
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    world = ["--world", PURE[0].name] if verb == ["suite"] else []
    code, _, err = _main(capsys, "--log-dir", str(tmp_path), *verb, "--model", model, *world)
    assert sanity_calls == [PURE[0].name] and "sanity reached" in err, err  # nothing refused


def test_suite_print_command__needs_no_key(
    no_keys: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _main(
        capsys, "--log-dir", str(tmp_path), "suite", "--model", "openai/gpt-4.1", "--print-command"
    )
    assert code == 0 and out.startswith("inspect eval-set "), err
