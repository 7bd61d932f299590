"""End to end through Inspect: every control, determinism, re-scoring, tampering."""

import json

import pytest
from inspect_ai import score as inspect_score
from inspect_ai.log import read_eval_log, write_eval_log

from checkout_consent.core.runner import run_controls, run_models
from checkout_consent.storefront.surface import SURFACE, check_sanity
from checkout_consent.storefront.task import storefront_scorer

from .helpers import control_record

pytestmark = pytest.mark.inspect


@pytest.fixture(scope="module")
def controls(tmp_path_factory) -> dict[str, list[dict]]:
    return run_controls(SURFACE, log_dir=tmp_path_factory.mktemp("logs"))


def test_inspect__every_control_passes_sanity_on_seeds_0_to_9(controls):
    assert [len(rows) for rows in controls.values()] == [10] * 4
    assert check_sanity(controls) == []


def test_inspect__live_play_equals_the_pure_world(controls):
    """The Inspect day loop and the pure harness give the same world figures."""
    for name, rows in controls.items():
        for r in rows:
            pure = control_record(name, r["seed"])
            assert (r["cash_final"], r["equity_final"], r["traps_caught"]) == (
                pure.cash_final, pure.equity_final, pure.traps_caught), (name, r["seed"])


def test_inspect__records_carry_reproducibility_stamps(controls):
    r = controls["oracle"][0]
    assert r["model_id"] == "control/storefront-oracle" and r["inspect_version"]
    assert r["turns_used"] > 0 and r["input_tokens"] > 0 and r["eval_cost_usd"] == 0.0
    assert r["auto_ended_days"] == 0 and r["behaviour_mode"] == "no-zenith"


def test_inspect__same_seed_same_model_byte_identical_record(tmp_path):
    runs = [run_models(SURFACE, ["control/storefront-cautious"], task_args={"seeds": "3"},
                       log_dir=tmp_path / str(i))[0] for i in range(2)]
    a, b = (json.dumps(r.records, sort_keys=True) for r in runs)
    assert a == b


def _rescore(path: str, out: str) -> dict:
    log = inspect_score(read_eval_log(path), scorers=[storefront_scorer()], action="overwrite")
    write_eval_log(log, out)
    return next(iter(log.samples[0].scores.values())).model_dump()


def test_inspect__rescoring_a_finished_log_gives_the_same_record(tmp_path):
    run = run_models(SURFACE, ["control/storefront-gullible"], task_args={"seeds": "1"},
                     log_dir=tmp_path)[0]
    rescored = _rescore(run.log_path, str(tmp_path / "rescored.eval"))
    assert rescored["metadata"]["record"] == run.records[0]


def test_inspect__tampered_observation_is_an_integrity_failure(tmp_path):
    run = run_models(SURFACE, ["control/storefront-gullible"], task_args={"seeds": "1"},
                     log_dir=tmp_path)[0]
    log = read_eval_log(run.log_path)
    calls = log.samples[0].store["RunStore:calls"]
    i = next(k for k, c in enumerate(calls) if c["tool"] == "place_order")
    calls[i]["observation"] = calls[i]["observation"].replace("paid", "paid (no fees ever)")
    write_eval_log(log, str(tmp_path / "tampered.eval"))
    rescored = _rescore(str(tmp_path / "tampered.eval"), str(tmp_path / "out.eval"))
    assert rescored["value"] == {"integrity": 0.0}
    assert "INTEGRITY FAILURE" in rescored["explanation"] and f"call {i}" in rescored[
        "explanation"]
