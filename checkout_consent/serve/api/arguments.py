"""Every argument a client hands the scoring service, as a constrained type the HTTP routes
and MCP tools both declare, so each refuses a bad one alike with Pydantic's message; and the
few checks no type can make. A refusal is `Invalid` (400) or `NotFound` (404), one line
naming the field; an echoed value is clipped to ECHO characters, so a huge argument costs
no more to refuse than a short one. A name retired for a field (RETIRED) is refused naming
the one to use, never read in its place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, Field, Strict, StringConstraints, TypeAdapter, ValidationError

from checkout_consent.core import names
from checkout_consent.core.contract import World
from checkout_consent.families import world_named

ECHO = 80  # characters of a client's value a refusal may echo
MAX_DEPTH = 32
MAX_TEXT = 100_000  # characters in any one string of a submission (keys included)
MAX_ITEMS = 2_000  # items in any one list of a submission (a trace's calls, a cart's lines)
MAX_NAME = 100
MAX_SEASON = 10_000
# a request field's retired name -> its one name (graded records keep their own `task_id`)
RETIRED = {"task_id": "task"}
_CONTROL = r"\x00-\x1f\x7f-\x9f"  # what a one-line display cannot show

# text storage can hold: Pydantic refuses a lone surrogate (not UTF-8), the pattern a NUL
# (PostgreSQL refuses it)
Text = Annotated[str, StringConstraints(max_length=MAX_TEXT, pattern=r"^[^\x00]*$")]


def _board_name(name: str) -> str:
    """A name as the board shows it, or ValueError (an invisible character, mixed scripts)."""
    why = names.problem(name)
    if why is not None:
        raise ValueError(f"the name {why}")
    return names.shown(name)


# a name shown on the board: one line of printable characters, not blank, no invisible
# character, one script; stored NFKC-normal and trimmed
Name = Annotated[
    str,
    StringConstraints(
        min_length=1,
        max_length=MAX_NAME,
        pattern=rf"^[^{_CONTROL}]*[^\s{_CONTROL}][^{_CONTROL}]*$",
    ),
    AfterValidator(_board_name),
]
# no dots or slashes: a task id never reaches a path
TaskId = Annotated[
    str, StringConstraints(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_:-]+$")
]
SubmissionId = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)]
Season = Annotated[int, Field(ge=0, le=MAX_SEASON, description="0 to 10,000")]
StrictSeason = Annotated[Season, Strict()]  # a JSON argument (MCP): no "3", no true, no 1.0
TEXT, NAME, TASK = TypeAdapter(Text), TypeAdapter(Name), TypeAdapter(TaskId)
T = TypeVar("T")


class Invalid(ValueError):
    """A refused argument or submission: which field, and why (400, nothing stored)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


class Unauthorized(PermissionError):
    """An agent name posted without its owner's token (answered 401, nothing stored)."""


class NotFound(LookupError):
    """No such family, task or submission (answered 404)."""


def refused(error: ValidationError, field: str = "body") -> Invalid:
    """Pydantic's first refusal as one Invalid line naming the field."""
    first = error.errors()[0]
    return Invalid(".".join(str(p) for p in first["loc"]) or field, first["msg"])


def checked(kind: TypeAdapter[T], field: str, value: object) -> T:
    """`value` as a constrained type where no request model carries it, refused as `field`."""
    try:
        return kind.validate_python(value)
    except ValidationError as error:
        raise refused(error, field) from None


def current_names(fields: Iterable[object]) -> None:
    """Refuse top-level fields under a retired name (RETIRED), naming the one to use (not
    `extra="forbid"`: a family's own body and the MCP SDK's models are not ours to declare)."""
    for field in fields:
        if isinstance(field, str) and field in RETIRED:
            use = RETIRED[field]
            raise Invalid(field, f'a retired name: every request calls this "{use}"; use "{use}"')


def clip(value: object) -> str:
    """A client's value as a refusal may echo it: a repr of at most ECHO characters."""
    if not isinstance(value, str):
        return f"a value of type {type(value).__name__}"
    shown = repr(value[:ECHO])
    return shown if len(value) <= ECHO else f"{shown}... ({len(value):,} characters)"


def world_arg(value: object) -> World:
    """A family of the roster by name (404 otherwise, as an unknown route)."""
    if isinstance(value, str) and len(value) <= MAX_NAME:
        try:
            return world_named(value)
        except KeyError:
            pass
    raise NotFound(f"unknown family {clip(value)}")


def control(world: World, value: object) -> str:
    """One of the family's controls by name (its reference when None)."""
    chosen = world.controls.reference if value is None else value
    if not isinstance(chosen, str) or chosen not in world.controls:
        raise Invalid(
            "control",
            f"{world.name} has no control {clip(chosen)}; controls: {', '.join(world.controls)}",
        )
    return chosen


def _children(item: Any, path: tuple[str, ...]) -> list[tuple[Any, tuple[str, ...]]]:
    if isinstance(item, dict):
        for key in item:
            checked(TEXT, ".".join((*path, "<key>")), key)
        return [(v, (*path, str(k)[:ECHO])) for k, v in item.items()]
    if isinstance(item, list):
        if len(item) > MAX_ITEMS:  # refused before any item is looked at
            raise Invalid(".".join(path) or "body", f"{len(item):,} items; at most {MAX_ITEMS:,}")
        return [(v, (*path, str(i))) for i, v in enumerate(item)]
    return []


def body(data: Any) -> None:
    """A parsed JSON body: at most MAX_DEPTH deep, no list over MAX_ITEMS, every string `Text`;
    an iterative walk, not a type: a family's body is any JSON until its scorer reads it, and
    Pydantic's recursive JSON type bounds no depth."""
    todo: list[tuple[Any, tuple[str, ...]]] = [(data, ())]
    while todo:
        item, path = todo.pop()
        if len(path) >= MAX_DEPTH:
            raise Invalid("body", f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            checked(TEXT, ".".join(path) or "body", item)
        todo.extend(_children(item, path))
