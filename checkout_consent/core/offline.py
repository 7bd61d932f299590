"""Grading with no model and no Inspect: a saved tool log, replayed through the world.

A saved log is a JSON list of calls (or an object with a `calls` list). Each call names a
`tool` and its `args`; `ok` and `observation` are optional. A call without an observation
is replayed as given; a call with one must replay to it, or grading refuses.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from checkout_consent.core.family import Family, RunInfo, Scenario
from checkout_consent.core.trace import Call, Replay, replay
from checkout_consent.core.version import git_sha, suite_version


def offline_run(model_id: str = "offline", epoch: int = 1) -> RunInfo:
    """Run facts for a run graded outside Inspect."""
    return RunInfo(model_id=model_id, epoch=epoch, inspect_version="none",
                   suite_version=suite_version(), git_sha=git_sha())


def saved_calls(trace: Any) -> list[dict[str, Any]]:
    """The calls of a saved log, checked for shape (ValueError names the bad call)."""
    items = trace.get("calls") if isinstance(trace, dict) else trace
    if not isinstance(items, list):
        raise ValueError("a trace is a list of calls or an object with a `calls` list")
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("tool"), str)
                and isinstance(item.get("args", {}), dict)):
            raise ValueError(f"call {i} needs a `tool` name and an `args` object: {item!r}")
    return items


def replay_saved(family: Family, scenario: Scenario, trace: Any) -> Replay[Any]:
    """Replay a saved log: fill in what it leaves out, refuse what does not replay."""
    raw = saved_calls(trace)
    bare = [Call(tool=c["tool"], args=dict(c.get("args", {})), ok=True, observation="")
            for c in raw]
    steps = replay(family.actions, family.initial(scenario), bare).steps
    calls = [Call(tool=b.tool, args=b.args, ok=bool(r.get("ok", s.ok)),
                  observation=r.get("observation", s.observation))
             for b, s, r in zip(bare, steps, raw, strict=True)]
    result = replay(family.actions, family.initial(scenario), calls)
    if result.mismatch is not None:
        raise ValueError(f"the trace does not replay: {result.mismatch.describe()}")
    return result


def grade_saved(family: Family, scenario: Scenario, trace: Any,
                run: RunInfo | None = None) -> dict[str, Any]:
    """The family's score record for a saved log, as plain JSON data."""
    record: BaseModel = family.grade(scenario, replay_saved(family, scenario, trace),
                                     run or offline_run())
    return dict(json.loads(record.model_dump_json()))
