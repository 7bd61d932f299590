"""A submission from a stranger, checked before anything is graded: strict JSON (no NaN or
Infinity, bounded nesting and size: `arguments.body`), then the family's own shape, extra
fields refused; every refusal an `Invalid` naming the field. One code path per family: its
`score_submission`, or the saved-trace path (`core.offline.grade_saved`). The stored task is
the graded record's, never a label the client adds."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checkout_consent.core.contract import Record, World
from checkout_consent.core.offline import grade_saved
from checkout_consent.core.world import ActionError
from checkout_consent.families import world_named
from checkout_consent.serve.api import arguments
from checkout_consent.serve.api.arguments import MAX_ITEMS, Invalid, Name, TaskId, Text, refused

MAX_BODY = 1_000_000  # bytes
MAX_CALLS = MAX_ITEMS
__all__ = ["MAX_BODY", "Invalid", "Scored", "TraceSubmission", "parse_json", "score"]


class AgentCard(BaseModel):
    """Who submitted: shown on the leaderboard."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Name
    model: str | None = Field(default=None, max_length=200)


class TraceCall(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    tool: str = Field(min_length=1, max_length=100)
    args: dict[str, Any] = {}
    ok: bool | None = None
    observation: Text | None = None


class TraceSubmission(BaseModel):
    """A saved trace: the task (as `checkout-consent score --task` takes it) and its calls."""

    model_config = ConfigDict(extra="forbid", strict=True)

    task: TaskId
    calls: list[TraceCall] = Field(max_length=MAX_CALLS)
    agent: AgentCard | None = None


Served = Callable[[str], None]  # raises Invalid for a task the caller does not grade


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
    arguments.body(data)
    return data


def _grade_trace(world: World, data: dict[str, Any], served: Served) -> Scored:
    try:
        sub = TraceSubmission.model_validate(data)
    except ValidationError as error:
        raise refused(error) from None
    agent = sub.agent.name if sub.agent else "anonymous"
    served(sub.task)
    try:
        scenario = world.dataset.task(sub.task)
    except (ValueError, KeyError, FileNotFoundError) as error:
        raise Invalid("task", f"unknown {world.name} task {sub.task!r} ({error})") from None
    calls = [c.model_dump(exclude_none=True) for c in sub.calls]
    try:
        record = grade_saved(world_named(world.name), scenario, calls)
    except (ValueError, ActionError, TypeError, KeyError, OverflowError) as error:
        raise Invalid("calls", str(error)[:300]) from None
    return Scored(sub.task, agent, None, record)


class _Envelope(BaseModel):
    """What the service adds around a family's own submission: who submitted."""

    model_config = ConfigDict(strict=True)

    agent: AgentCard | None = None


def _own_scorer(world: World, data: dict[str, Any], today: str | None, served: Served) -> Scored:
    assert world.score_submission is not None
    try:
        card = _Envelope.model_validate({"agent": data.get("agent")}).agent
    except ValidationError as error:
        raise refused(error) from None
    agent = card.name if card else "anonymous"
    own = {k: v for k, v in data.items() if k != "agent"}
    try:
        record = world.score_submission(own, today)
    except Invalid:
        raise
    except (ValueError, KeyError, TypeError) as error:
        field = getattr(error, "field", None) or "body"
        raise Invalid(str(field), str(error)[:300]) from None
    task, season = record.get("task_id"), record.get("season")
    if not isinstance(task, str) or not task:  # the family's bug, not the client's
        raise TypeError(f"{world.name}'s score_submission gave a record without a task_id")
    served(task)
    return Scored(task, agent, season if isinstance(season, int) else None, record)


def score(
    world: World, data: dict[str, Any], today: str | None = None, served: Served = lambda t: None
) -> Scored:
    """Grade one parsed submission by the family's one scoring path. `today` is the service's
    date (None offline); `served(task)` raises Invalid for a task the caller does not grade,
    before anything is answered or stored."""
    arguments.current_names(data)
    if world.score_submission is not None:
        return _own_scorer(world, data, today, served)
    return _grade_trace(world, data, served)
