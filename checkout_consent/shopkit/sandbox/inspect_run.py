"""The inspect adapter's run: play the shopkit task through the runtime's runner and read
the final tree from the log (no Inspect import here: runtime/ is the Inspect layer)."""

from __future__ import annotations

from typing import Any

from checkout_consent.core import Call, Scenario, replay
from checkout_consent.runtime.logs import read_log
from checkout_consent.runtime.runner import run_models
from checkout_consent.runtime.store import RunStore
from checkout_consent.shopkit import WORLD


def run_eval(model: str, task: str, brief: str | None, *, log_dir: str, turns: int) -> Any:
    """The finished log (samples included) of one shopkit task played by `model`;
    `runtime.runner.RunFailed` if it did not finish."""
    args: dict[str, Any] = {"task": task, "turns": turns}
    if brief is not None:
        args["brief"] = brief
    run = run_models(WORLD, [model], task_args=args, log_dir=log_dir)[0]
    return read_log(run.log_path)


def final_tree(log: Any) -> dict[str, str]:
    """Replay the first sample's trace (read through the runtime's RunStore model) and
    return its final file tree."""
    sample = log.samples[0]
    scenario = Scenario.model_validate(sample.metadata["scenario"])
    calls = [Call.model_validate(c) for c in sample.store_as(RunStore).calls]
    result = replay(WORLD.actions, WORLD.initial(scenario), calls)
    if result.mismatch is not None:
        raise RuntimeError(f"the trace does not replay: {result.mismatch.describe()}")
    return result.final.tree()
