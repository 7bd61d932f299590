"""A submission from a stranger, checked before anything is graded: strict JSON (no NaN or
Infinity, bounded nesting and size), then the family's own shape. Every refusal is an
`Invalid` naming the field; grading errors (a trace that does not replay, a domain error)
are refusals too. One code path per family: its `score_submission`, or the saved-trace
path through `core.offline.grade_saved`."""

from __future__ import annotations

import json
import math
import re
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checkout_consent.core.family import FamilySpec, Record
from checkout_consent.core.offline import grade_saved
from checkout_consent.core.world import ActionError

MAX_BODY = 1_000_000  # bytes
MAX_DEPTH = 32
MAX_CALLS = 2_000
TASK_ID = re.compile(r"^[A-Za-z0-9_:-]{1,100}$")  # no dots or slashes: ids never reach paths


class Invalid(ValueError):
    """A refused submission: which field, and why (answered 400, nothing stored)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


class AgentCard(BaseModel):
    """Who submitted: shown on the leaderboard."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=100)
    model: str | None = Field(default=None, max_length=200)


class TraceCall(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    tool: str = Field(min_length=1, max_length=100)
    args: dict[str, Any] = {}
    ok: bool | None = None
    observation: str | None = Field(default=None, max_length=100_000)


class TraceSubmission(BaseModel):
    """A saved trace: the task (as `checkout-consent score --task` takes it) and its calls."""

    model_config = ConfigDict(extra="forbid", strict=True)

    task: str = Field(min_length=1, max_length=100)
    calls: list[TraceCall] = Field(max_length=MAX_CALLS)
    agent: AgentCard | None = None


class Scored(NamedTuple):
    task: str
    agent: str
    season: int | None
    record: Record


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text[:40]}")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """Nesting depth, iteratively (a hostile document cannot exhaust the stack)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        children = item.values() if isinstance(item, dict) else item if isinstance(
            item, list) else ()
        todo.extend((child, level + 1) for child in children)
    return deepest


def parse_json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, or Invalid("body", ...)."""
    if len(body) > MAX_BODY:
        raise Invalid("body", f"larger than {MAX_BODY} bytes")
    if body.count(b"[") + body.count(b"{") > 200_000:
        raise Invalid("body", "too many nested values")
    try:
        data = json.loads(body, parse_float=_finite, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        raise Invalid("body", f"not valid JSON ({str(error)[:120]})") from None
    if not isinstance(data, dict):
        raise Invalid("body", "must be a JSON object")
    if _depth(data) > MAX_DEPTH:
        raise Invalid("body", f"nested deeper than {MAX_DEPTH} levels")
    return data


def _first_error(error: ValidationError) -> Invalid:
    first = error.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "body"
    return Invalid(field, first["msg"])


def _grade_trace(spec: FamilySpec, data: dict[str, Any]) -> Scored:
    try:
        sub = TraceSubmission.model_validate(data)
    except ValidationError as error:
        raise _first_error(error) from None
    if not TASK_ID.match(sub.task):
        raise Invalid("task", "a task id is letters, digits, '_', ':' and '-'")
    try:
        scenario = spec.scenario_for(sub.task)
    except (ValueError, KeyError, FileNotFoundError) as error:
        raise Invalid("task", f"unknown {spec.name} task {sub.task!r} ({error})") from None
    calls = [c.model_dump(exclude_none=True) for c in sub.calls]
    try:
        record = grade_saved(spec, scenario, calls)
    except (ValueError, ActionError, TypeError, KeyError, OverflowError) as error:
        raise Invalid("calls", str(error)[:300]) from None
    return Scored(sub.task, sub.agent.name if sub.agent else "anonymous", None, record)


def _own_scorer(spec: FamilySpec, data: dict[str, Any]) -> Scored:
    assert spec.score_submission is not None
    try:
        record = spec.score_submission(data)
    except Invalid:
        raise
    except (ValueError, KeyError, TypeError) as error:
        field = getattr(error, "field", None) or "body"
        raise Invalid(str(field), str(error)[:300]) from None
    card = data.get("agent")
    agent = card.get("name") if isinstance(card, dict) else None
    season = record.get("season")
    return Scored(str(data.get("task") or record.get("task") or "")[:100],
                  agent if isinstance(agent, str) and agent else "anonymous",
                  season if isinstance(season, int) else None, record)


def score(spec: FamilySpec, data: dict[str, Any]) -> Scored:
    """Grade one parsed submission by the family's one scoring path."""
    if spec.score_submission is not None:
        return _own_scorer(spec, data)
    return _grade_trace(spec, data)
