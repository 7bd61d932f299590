"""A score record holds no wall-clock or machine value: the same controls, run in two
processes with different PYTHONHASHSEED and TZ, give byte-identical records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checkout_consent.families import WORLDS

OFFLINE = """
import json, sys
from checkout_consent.core.contract import Scenario
from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import WORLDS
import importlib
out = {}
for world in WORLDS:
    task = getattr(importlib.import_module(f"checkout_consent.{world.name}.task"), world.name)
    samples = task(**dict(world.dataset.public_args)).dataset
    scenarios = [Scenario.model_validate(s.metadata["scenario"]) for s in samples]
    for control in world.controls.sanity:
        for sc in scenarios:
            key = f"{world.name}/{control}/{world.dataset.sample_id(sc)}"
            out[key] = play_and_grade(world, sc, world.controls[control])
sys.stdout.write(json.dumps(out, sort_keys=True))
"""

# one control of each family, one sample each, through Inspect
INSPECT_RUNS = {
    "storefront": ("cautious", {"seeds": "3"}),
    "shopkit": ("reference", {"task": "T2"}),
    "pizza": ("reference", {"tasks": "wrong-topping-3"}),
}
INSPECT = """
import json, sys
from checkout_consent.families import world_named
from checkout_consent.runtime.runner import run_models
out = {}
for name, (control, args) in json.loads(sys.argv[1]).items():
    run = run_models(world_named(name), [f"control/{name}-{control}"], task_args=args,
                     log_dir=sys.argv[2] + "/" + name)[0]
    out[name] = run.records
sys.stdout.write(json.dumps(out, sort_keys=True))
"""

ENVS = ({"PYTHONHASHSEED": "1", "TZ": "UTC"}, {"PYTHONHASHSEED": "4242", "TZ": "Asia/Kolkata"})


def _child(code: str, env: dict[str, str], *args: str) -> str:
    root = str(Path(__file__).resolve().parents[2])
    full = {**os.environ, **env, "PYTHONPATH": root}
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=1200,
        cwd=root,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.mark.slow
def test_records__every_familys_controls_are_byte_identical_across_processes():
    first, second = (_child(OFFLINE, env) for env in ENVS)
    assert first == second
    seen = {key.split("/")[0] for key in json.loads(first)}
    assert seen == {f.name for f in WORLDS}


@pytest.mark.slow
@pytest.mark.inspect
def test_records__an_inspect_run_per_family_is_byte_identical_across_processes(tmp_path):
    runs = json.dumps(INSPECT_RUNS)
    first, second = (
        _child(INSPECT, env, runs, str(tmp_path / str(i))) for i, env in enumerate(ENVS)
    )
    assert first == second and set(json.loads(first)) == set(INSPECT_RUNS)


def test_records__a_failing_build_names_no_temporary_or_machine_path():
    """A build that does not import is recorded from its own frames only, relative to the
    build: two runs give the same record, with no temp dir or interpreter path in it."""
    from checkout_consent.core.offline import play_and_grade
    from checkout_consent.shopkit import WORLD as SHOPKIT

    scenario = SHOPKIT.dataset.task("T1")
    first, second = (
        play_and_grade(SHOPKIT, scenario, SHOPKIT.controls["vandal-syntax_error"]) for _ in range(2)
    )
    assert first == second and first["build_error"].startswith('  File "shopkit/')
    assert "/tmp" not in first["build_error"] and "python3" not in first["build_error"]
