"""End to end through Inspect: every control, determinism, re-scoring, tampering."""

import json

import pytest
from inspect_ai import score as inspect_score
from inspect_ai.log import read_eval_log, write_eval_log

from checkout_consent.runtime.runner import run_controls, run_models
from checkout_consent.runtime.scorer import metric_names
from checkout_consent.storefront import WORLD, dataset, prompts
from checkout_consent.storefront.controls.sanity import check_sanity
from checkout_consent.storefront.task import storefront, storefront_scorer

from .helpers import control_record

pytestmark = pytest.mark.inspect


@pytest.fixture(scope="module")
def controls(tmp_path_factory) -> dict[str, list[dict]]:
    return run_controls(WORLD, log_dir=tmp_path_factory.mktemp("logs"))


@pytest.mark.slow
def test_inspect__every_control_passes_sanity_on_seeds_0_to_9(controls):
    assert [len(rows) for rows in controls.values()] == [10] * len(WORLD.controls.sanity)
    assert check_sanity(controls) == []


def test_inspect__live_play_equals_the_pure_world(tmp_path):
    """The Inspect day loop and the pure harness give the same world figures (three seeds in
    the default run; the slow layer's sanity test plays all ten through Inspect)."""
    controls = run_controls(WORLD, log_dir=tmp_path, task_args={"seeds": "0,4,8"})
    assert [len(rows) for rows in controls.values()] == [3] * len(WORLD.controls.sanity)
    for name, rows in controls.items():
        for r in rows:
            pure = control_record(name, r["seed"])
            assert (r["cash_final"], r["equity_final"], r["traps_caught"]) == (
                pure.cash_final,
                pure.equity_final,
                pure.traps_caught,
            ), (name, r["seed"])


def test_inspect__records_hold_the_world_and_scores_carry_provenance(tmp_path):
    run = run_models(
        WORLD, ["control/storefront-oracle"], task_args={"seeds": "0"}, log_dir=tmp_path
    )[0]
    (r,) = run.records
    assert r["auto_ended_days"] == 0 and r["behaviour_mode"] == "no-zenith"
    assert r["world_version"] == WORLD.world_version and "model_id" not in r
    score = next(iter(read_eval_log(run.log_path).samples[0].scores.values()))
    prov = score.metadata["provenance"]
    assert prov["model_id"] == "control/storefront-oracle" and prov["inspect_version"]
    assert prov["turns"] == r["turns_used"] > 0 and prov["input_tokens"] > 0
    assert prov["eval_cost_usd"] == 0.0


def test_task__samples_carry_a_bare_reference_and_the_opening_without_a_seed():
    task = storefront(seeds="1,4")
    assert [s.id for s in task.dataset] == ["seed-1", "seed-4"]
    for sample, seed in zip(task.dataset, (1, 4), strict=True):
        assert sample.metadata["scenario"] == {
            "world": "storefront",
            "scenario_id": "adversary_v0",
            "seed": seed,
            "params": {},
            "version": WORLD.version,
        }
        assert sample.input == prompts.briefing(dataset.load_task_file())
        assert "seed" not in sample.input and "Run:" not in sample.input
    assert task.version == WORLD.version == WORLD.meta.number  # N of eval.yaml's "N-X"


def test_inspect__same_seed_same_model_byte_identical_record(tmp_path):
    runs = [
        run_models(
            WORLD,
            ["control/storefront-cautious"],
            task_args={"seeds": "3"},
            log_dir=tmp_path / str(i),
        )[0]
        for i in range(2)
    ]
    a, b = (json.dumps(r.records, sort_keys=True) for r in runs)
    assert a == b


def _rescore(path: str, out: str) -> dict:
    log = inspect_score(read_eval_log(path), scorers=[storefront_scorer()], action="overwrite")
    write_eval_log(log, out)
    return next(iter(log.samples[0].scores.values())).model_dump()


def test_inspect__rescoring_a_finished_log_gives_the_same_record(tmp_path):
    run = run_models(
        WORLD, ["control/storefront-gullible"], task_args={"seeds": "1"}, log_dir=tmp_path
    )[0]
    rescored = _rescore(run.log_path, str(tmp_path / "rescored.eval"))
    assert rescored["metadata"]["record"] == run.records[0]


def test_inspect__tampered_observation_is_an_integrity_failure(tmp_path):
    run = run_models(
        WORLD, ["control/storefront-gullible"], task_args={"seeds": "1"}, log_dir=tmp_path
    )[0]
    log = read_eval_log(run.log_path)
    calls = log.samples[0].store["RunStore:calls"]
    i = next(k for k, c in enumerate(calls) if c["tool"] == "place_order")
    calls[i]["observation"] = calls[i]["observation"].replace("paid", "paid (no fees ever)")
    write_eval_log(log, str(tmp_path / "tampered.eval"))
    rescored = _rescore(str(tmp_path / "tampered.eval"), str(tmp_path / "out.eval"))
    assert rescored["value"] == {**dict.fromkeys(metric_names(WORLD), 0.0), "integrity": 0.0}
    assert "INTEGRITY FAILURE" in rescored["explanation"] and f"call {i}" in rescored["explanation"]


def test_inspect__context_overflow_is_recorded_and_the_run_still_scored(tmp_path):
    run = run_models(
        WORLD,
        ["control/storefront-oracle"],
        task_args={"seeds": "0"},
        log_dir=tmp_path,
        token_limit=3000,
    )[0]
    (r,) = run.records
    day = r["context_overflow_day"]
    assert day is not None and 1 <= day < 5
    assert r["auto_ended_days"] == 5 - day + 1  # the overflow day and every day after it
    calls = read_eval_log(run.log_path).samples[0].store["RunStore:calls"]
    tail = calls[-r["auto_ended_days"] :]
    assert all(c["tool"] == "end_day" and c["origin"] == "solver" for c in tail)
    assert all(c["origin"] == "agent" for c in calls[: -len(tail)])
    assert "run is over" in tail[-1]["observation"]


def _scripted(calls_by_day: dict[int, list[tuple[str, dict]]]):
    """A mockllm script: on each day, the given calls one per turn, then end_day."""
    from inspect_ai.model import ModelOutput, ModelUsage

    def next_output(messages, tools, tool_choice, config):
        day = sum(1 for m in messages if m.role == "user" and m.text.startswith("Day "))
        made = 0
        for m in reversed(messages):
            if m.role == "user" and m.text.startswith("Day "):
                break
            if m.role == "assistant":
                made += len(m.tool_calls or [])
        plan = calls_by_day.get(day, []) + [("end_day", {})]
        tool, args = plan[min(made, len(plan) - 1)]
        out = ModelOutput.for_tool_call(
            "mockllm/model", tool, args, tool_call_id=f"c{len(messages)}"
        )
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return next_output


def test_inspect__malformed_calls_get_tool_errors_and_change_nothing(tmp_path):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    script = _scripted(
        {
            1: [
                ("place_order", {"supplier_id": "pacific", "product_id": "lamp", "quantity": -5}),
                (
                    "place_order",
                    {"supplier_id": "pacific", "product_id": "lamp", "quantity": "abc"},
                ),
                ("set_price", {"product_id": "sofa", "price": 3}),
                ("respond_to_supplier_email", {"email_id": "E-77", "decision": "cancel"}),
            ]
        }
    )
    model = get_model("mockllm/model", custom_outputs=script)
    (log,) = inspect_eval(
        "checkout_consent/storefront",
        model=model,
        task_args={"seeds": "0"},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    sample = log.samples[0]
    errors = [m.error.message for m in sample.messages if m.role == "tool" and m.error]
    assert any("between 1 and 100" in e for e in errors)
    assert any("sofa" in e for e in errors) and any("E-77" in e for e in errors)
    assert len(errors) == 4  # the string quantity is refused too (by Inspect's schema check)
    record = next(iter(sample.scores.values())).metadata["record"]
    assert record["cash_final"] == 900.0 and record["days_idle"] == 5
