"""The example traces shipped beside each family (tests/core/make_example_traces.py): each is its
control's real run, grades as that run does, and a tampered copy is refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from checkout_consent.core.offline import grade_saved, play, play_and_grade
from checkout_consent.families import world_named
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.core.make_example_traces import EXAMPLES, PACKAGE, Example, example_text

IDS = [f"{e.family}-{e.task}" for e in EXAMPLES]
CLI = str(Path(sys.executable).parent / "checkout-consent")


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_trace__is_its_controls_run_as_generated(example: Example):
    assert (PACKAGE / example.path).read_text(encoding="utf-8") == example_text(example), (
        "regenerate: python -m tests.core.make_example_traces"
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_trace__grades_as_its_control_run_grades(example: Example):
    own = world_named(example.family)
    ref = own.dataset.task(example.task)
    trace = json.loads((PACKAGE / example.path).read_text(encoding="utf-8"))
    played = play(own, ref, own.controls[example.control])
    expected = play_and_grade(own, ref, own.controls[example.control])
    assert grade_saved(own, ref, trace, played.turns) == expected  # turns: not in a trace


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_trace__each_is_named_by_a_documented_score_command(example: Example):
    docs = "".join(p.read_text() for p in REPO_ROOT.glob("checkout_consent/*/README.md"))
    command = (
        f"checkout-consent score {example.family} --task {example.task} "
        f"--trace checkout_consent/{example.path}"
    )
    assert command in docs


def test_example_trace__a_tampered_one_is_refused_in_one_line(tmp_path: Path):
    example = EXAMPLES[0]
    trace = json.loads((PACKAGE / example.path).read_text(encoding="utf-8"))
    trace[0]["observation"] = trace[0]["observation"].replace("$", "$1")
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(trace))
    out = subprocess.run(
        [CLI, "score", example.family, "--task", example.task, "--trace", str(forged)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "the trace does not replay: call 0" in out.stderr
