"""Grade a saved shopkit tool log with no model: `checkout-consent score shopkit --task T1
--trace calls.json`. Run calls must carry their recorded `result`; nothing is executed
but the final build."""

from __future__ import annotations

import json
from typing import Any

from checkout_consent.core.family import RunInfo
from checkout_consent.core.trace import Call, replay
from checkout_consent.core.version import git_sha, suite_version
from checkout_consent.shopkit import FAMILY
from checkout_consent.shopkit.generate import scenario


def _calls(trace: Any) -> list[dict[str, Any]]:
    items = trace.get("calls") if isinstance(trace, dict) else trace
    if not isinstance(items, list):
        raise ValueError("a trace is a list of calls or an object with a `calls` list")
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("tool"), str)
                and isinstance(item.get("args", {}), dict)):
            raise ValueError(f"call {i} needs a `tool` name and an `args` object: {item!r}")
    return items


def score_trace(task: str, trace: Any) -> dict[str, Any]:
    """Replay the calls from the task's seed, check any recorded observation, and grade."""
    sc = scenario(task)
    raw = _calls(trace)
    bare = [Call(tool=c["tool"], args=dict(c.get("args", {})), ok=True, observation="")
            for c in raw]
    steps = replay(FAMILY.actions, FAMILY.initial(sc), bare).steps
    calls = [Call(tool=c.tool, args=c.args, ok=s.ok, observation=r.get("observation",
                                                                         s.observation))
             for c, s, r in zip(bare, steps, raw, strict=True)]
    result = replay(FAMILY.actions, FAMILY.initial(sc), calls)
    if result.mismatch is not None:
        raise ValueError(f"the trace does not replay: {result.mismatch.describe()}")
    run = RunInfo(model_id="offline", inspect_version="n/a", suite_version=suite_version(),
                  git_sha=git_sha())
    return dict(json.loads(FAMILY.grade(sc, result, run).model_dump_json()))
