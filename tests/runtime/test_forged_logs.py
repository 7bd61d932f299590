"""A re-graded log must be the run that was played: forged logs through `inspect score`
and `regrade_log` (runs storefront's idle and oracle controls through Inspect)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import score as inspect_score
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from checkout_consent.families import WORLDS
from checkout_consent.runtime.regrade import RegradeError, regrade_log
from checkout_consent.runtime.runner import run_models
from checkout_consent.runtime.scorer import metric_names
from checkout_consent.storefront import WORLD
from checkout_consent.storefront.task import storefront_scorer

pytestmark = pytest.mark.inspect
CALLS = "RunStore:calls"


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("logs")
    idle = run_models(
        WORLD, ["control/storefront-idle"], task_args={"seeds": "0,1,2"}, log_dir=out / "idle"
    )[0]
    oracle = run_models(
        WORLD, ["control/storefront-oracle"], task_args={"seeds": "0"}, log_dir=out / "oracle"
    )[0]
    return {"idle": idle.log_path, "oracle": oracle.log_path}


def _forge(logs: dict[str, str], tmp: Path, edit: Callable[[EvalLog, EvalLog], None]) -> str:
    log, oracle = read_eval_log(logs["idle"]), read_eval_log(logs["oracle"])
    edit(log, oracle)
    path = str(tmp / "forged.eval")
    write_eval_log(log, path)
    return path


def _sample(log: EvalLog, sample_id: str) -> Any:
    return next(s for s in log.samples or [] if s.id == sample_id)


def _paste_oracle_trace(log: EvalLog, oracle: EvalLog) -> None:
    _sample(log, "seed-0").store[CALLS] = copy.deepcopy(oracle.samples[0].store[CALLS])


def _paste_whole_oracle_sample_metadata_only(log: EvalLog, oracle: EvalLog) -> None:
    _sample(log, "seed-0").metadata["scenario"]["params"] = {"answer_key": "cancel all"}


def _wrong_version(log: EvalLog, oracle: EvalLog) -> None:
    sample = _sample(log, "seed-0")
    sample.metadata["scenario"]["version"] = 1
    sample.store["RunStore:scenario"]["version"] = 1


def _other_seed(log: EvalLog, oracle: EvalLog) -> None:
    sample = _sample(log, "seed-0")
    sample.metadata["scenario"]["seed"] = 1
    sample.store["RunStore:scenario"]["seed"] = 1


def _agent_calls(log: EvalLog) -> list[int]:
    calls = _sample(log, "seed-0").store[CALLS]
    return [i for i, c in enumerate(calls) if c["origin"] == "agent"]


def _reorder(log: EvalLog, oracle: EvalLog) -> None:
    calls = oracle.samples[0].store[CALLS]
    i, j = [k for k, c in enumerate(calls) if c["origin"] == "agent"][:2]
    calls[i], calls[j] = calls[j], calls[i]


def _drop(log: EvalLog, oracle: EvalLog) -> None:
    calls = oracle.samples[0].store[CALLS]
    k = next(k for k, c in enumerate(calls) if c["tool"] == "take_note" or c["origin"] == "agent")
    del calls[k]


def _claim_solver(log: EvalLog, oracle: EvalLog) -> None:
    calls = oracle.samples[0].store[CALLS]
    k = next(k for k, c in enumerate(calls) if c["origin"] == "agent")
    calls[k]["origin"] = "solver"


FORGERIES: dict[str, tuple[Callable[[EvalLog, EvalLog], None], str]] = {
    "pasted oracle trace": (_paste_oracle_trace, "call 0 (place_order"),
    "answer key in metadata": (_paste_whole_oracle_sample_metadata_only, "differs"),
    "unknown world version": (_wrong_version, "storefront-1 is unknown"),
    "another seed's scenario": (_other_seed, "does not name scenario"),
}
ORACLE_FORGERIES = {
    "reordered calls": _reorder,
    "dropped call": _drop,
    "agent call claimed by the solver": _claim_solver,
}


def _rescore(path: str) -> EvalLog:
    return inspect_score(read_eval_log(path), scorers=[storefront_scorer()], action="overwrite")


@pytest.mark.parametrize("name", list(FORGERIES))
def test_regrade__refuses_a_forged_idle_log(logs, tmp_path, name):
    edit, why = FORGERIES[name]
    verdict = regrade_log(_forge(logs, tmp_path, edit), WORLDS)
    failed = {s.id: s for s in verdict.samples if s.failure}
    assert list(failed) == ["seed-0"] and failed["seed-0"].record is None
    assert why in (failed["seed-0"].failure or ""), failed["seed-0"].failure


@pytest.mark.parametrize("name", list(ORACLE_FORGERIES))
def test_regrade__refuses_an_edited_oracle_trace(logs, tmp_path, name):
    log = read_eval_log(logs["oracle"])
    ORACLE_FORGERIES[name](log, log)
    path = str(tmp_path / "forged.eval")
    write_eval_log(log, path)
    (sample,) = regrade_log(path, WORLDS).samples
    assert sample.record is None and sample.failure


def test_inspect_score__pasted_trace_zeroes_one_sample_and_keeps_the_others(logs, tmp_path):
    rescored = _rescore(_forge(logs, tmp_path, _paste_oracle_trace))
    scores = {s.id: next(iter(s.scores.values())) for s in rescored.samples}
    forged = scores["seed-0"]
    assert forged.value == {**dict.fromkeys(metric_names(WORLD), 0.0), "integrity": 0.0}
    assert "INTEGRITY FAILURE" in str(forged.explanation) and "call 0" in str(forged.explanation)
    assert all(scores[k].value["integrity"] == 1.0 for k in ("seed-1", "seed-2"))
    metrics = {m for s in rescored.results.scores for m in s.metrics} | {
        s.name for s in rescored.results.scores
    }
    assert {"cash_final_mean", "integrity_mean"} <= metrics, metrics


def test_regrade__honest_logs_give_the_logged_records(logs):
    for path in logs.values():
        verdict = regrade_log(path, WORLDS)
        assert verdict.ok, [s.failure for s in verdict.samples]
        logged = {
            s.id: next(iter(s.scores.values())).metadata["record"]
            for s in read_eval_log(path).samples
        }
        assert {s.id: s.record for s in verdict.samples} == logged


def test_regrade__ignores_stored_scores(logs, tmp_path):
    log = read_eval_log(logs["idle"])
    for sample in log.samples:
        next(iter(sample.scores.values())).metadata["record"]["cash_final"] = 10**6
    path = str(tmp_path / "inflated.eval")
    write_eval_log(log, path)
    assert {s.record["cash_final"] for s in regrade_log(path, WORLDS).samples} == {900.0}


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04garbage"])
def test_regrade__refuses_a_file_that_is_not_a_log_in_one_line(tmp_path, content):
    path = tmp_path / "bad.eval"
    path.write_bytes(content)
    with pytest.raises(RegradeError) as err:
        regrade_log(path, WORLDS)
    assert "\n" not in str(err.value) and "bad.eval" in str(err.value)


def test_regrade__refuses_a_missing_file(tmp_path):
    with pytest.raises(RegradeError, match="none.eval: no such file"):
        regrade_log(tmp_path / "none.eval", WORLDS)
