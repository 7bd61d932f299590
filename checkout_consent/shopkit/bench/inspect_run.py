"""Inspect glue for the inspect adapter: run the task, read the final tree from the log."""

from __future__ import annotations

from typing import Any

from checkout_consent.core.family import Scenario
from checkout_consent.core.trace import Call, replay
from checkout_consent.runtime.store import RunStore
from checkout_consent.shopkit import SPEC


def run_eval(model: str, task: str, brief: str | None, *, log_dir: str, turns: int) -> Any:
    from inspect_ai import eval as inspect_eval

    from checkout_consent.shopkit.task import shopkit

    log = inspect_eval(shopkit(task=task, brief=brief, turns=turns), model=model,
                       log_dir=log_dir, display="none", score_display=False)[0]
    if log.status != "success" or not log.samples:
        raise RuntimeError(f"the shopkit eval with {model} did not finish: {log.status}")
    return log


def final_tree(log: Any) -> dict[str, str]:
    """Replay the first sample's trace (read through the runtime's RunStore model) and
    return its final file tree."""
    sample = log.samples[0]
    scenario = Scenario.model_validate(sample.metadata["scenario"])
    calls = [Call.model_validate(c) for c in sample.store_as(RunStore).calls]
    result = replay(SPEC.actions, SPEC.initial(scenario), calls)
    if result.mismatch is not None:
        raise RuntimeError(f"the trace does not replay: {result.mismatch.describe()}")
    return result.final.tree()
