"""Every argument a client hands the scoring service, checked once for both surfaces (the
HTTP API and the MCP server call the same `Service`, which calls these): a family, a task
id, a season, a control, an agent name, and every text of a submission body. A refusal is
`Invalid` (400) or `NotFound` (404), one line naming the field; a value echoed in it is
clipped to ECHO characters, so a huge argument costs no more to refuse than a short one.
A thing has one name in every request (a body of any family, a tool's arguments): a name
retired for it (RETIRED) is refused naming the one to use, never read in its place."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from checkout_consent.core.family import FamilySpec
from checkout_consent.families import family as roster_family

ECHO = 80  # characters of a client's value a refusal may echo
MAX_DEPTH = 32
MAX_TEXT = 100_000  # characters in any one string of a submission (keys included)
MAX_ITEMS = 2_000  # items in any one list of a submission (a trace's calls, a cart's lines)
MAX_NAME = 100
MAX_SEASON = 10_000
TASK_ID = re.compile(r"^[A-Za-z0-9_:-]{1,100}$")  # no dots or slashes: ids never reach paths
# a request field's retired name -> its one name (graded records keep their own `task_id`)
RETIRED = {"task_id": "task"}
# what storage cannot hold (a lone surrogate is not UTF-8; PostgreSQL refuses NUL) and, in
# a name or id, what a one-line display cannot show (control characters)
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class Invalid(ValueError):
    """A refused argument or submission: which field, and why (answered 400, nothing
    stored)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


class Unauthorized(PermissionError):
    """An agent name posted without its owner's token (answered 401, nothing stored)."""


class NotFound(LookupError):
    """No such family, task or submission (answered 404)."""


def current_names(fields: Iterable[object]) -> None:
    """Refuse a request whose top-level fields use a retired name (RETIRED), naming the one
    name every body and tool takes instead."""
    for field in fields:
        if isinstance(field, str) and field in RETIRED:
            use = RETIRED[field]
            raise Invalid(field, f'a retired name: every request calls this "{use}"; use "{use}"')


def clip(value: object) -> str:
    """A client's value as a refusal may echo it: a string's repr, at most ECHO characters;
    anything else by its type only."""
    if not isinstance(value, str):
        return f"a value of type {type(value).__name__}"
    shown = repr(value[:ECHO])
    return shown if len(value) <= ECHO else f"{shown}... ({len(value):,} characters)"


def text(field: str, value: object, max_len: int = MAX_TEXT, *, line: bool = False) -> str:
    """A string that can be stored (and, with `line`, shown on one line) of at most
    `max_len` characters."""
    if not isinstance(value, str):
        raise Invalid(field, f"must be text, got {clip(value)}")
    if len(value) > max_len:
        raise Invalid(field, f"longer than {max_len:,} characters")
    bad = (_UNPRINTABLE if line else _UNSTORABLE).search(value)
    if bad is not None:
        what = (
            "a lone surrogate"
            if "\ud800" <= bad.group() <= "\udfff"
            else f"the control character U+{ord(bad.group()):04X}"
        )
        raise Invalid(field, f"holds {what} at index {bad.start()}, which cannot be stored")
    return value


def name(field: str, value: object) -> str:
    """A name shown on the board: 1 to MAX_NAME printable characters."""
    if isinstance(value, str) and not value.strip():
        raise Invalid(field, "must not be empty")
    return text(field, value, MAX_NAME, line=True)


def family(value: object) -> FamilySpec:
    """A family of the roster by name (404 otherwise)."""
    if isinstance(value, str) and len(value) <= MAX_NAME:
        try:
            return roster_family(value)
        except KeyError:
            pass
    raise NotFound(f"unknown family {clip(value)}")


def task_id(spec: FamilySpec, value: object) -> str:
    """A well-formed task id (404 otherwise: ids never reach a path unchecked)."""
    if not isinstance(value, str) or not TASK_ID.match(value):
        raise NotFound(f"no {spec.name} task {clip(value)}")
    return value


def season(value: object) -> int | None:
    """None (every season) or a whole number 0 to MAX_SEASON."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SEASON:
        shown = (
            clip(value)
            if not isinstance(value, int)
            else str(value)
            if abs(value) < 10**12
            else "a number beyond 10^12"
        )
        raise Invalid("season", f"must be a whole number 0 to {MAX_SEASON}, got {shown}")
    return value


def control(spec: FamilySpec, value: object) -> str:
    """One of the family's controls by name (its reference when None)."""
    chosen = spec.reference_control if value is None else value
    if not isinstance(chosen, str) or chosen not in spec.controls:
        raise Invalid(
            "control",
            f"{spec.name} has no control {clip(chosen)}; controls: {', '.join(spec.controls)}",
        )
    return chosen


def _children(item: Any, path: tuple[str, ...]) -> list[tuple[Any, tuple[str, ...]]]:
    if isinstance(item, dict):
        for key in item:
            text(".".join((*path, "<key>")) or "body", key, MAX_TEXT)
        return [(v, (*path, str(k)[:ECHO])) for k, v in item.items()]
    if isinstance(item, list):
        if len(item) > MAX_ITEMS:  # refused before any item is looked at
            raise Invalid(".".join(path) or "body", f"{len(item):,} items; at most {MAX_ITEMS:,}")
        return [(v, (*path, str(i))) for i, v in enumerate(item)]
    return []


def body(data: Any) -> None:
    """A parsed JSON body: nested at most MAX_DEPTH levels, no list over MAX_ITEMS items, and
    every string (keys too) storable text of at most MAX_TEXT characters; iterative, so no
    document exhausts the stack."""
    todo: list[tuple[Any, tuple[str, ...]]] = [(data, ())]
    while todo:
        item, path = todo.pop()
        if len(path) >= MAX_DEPTH:
            raise Invalid("body", f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            text(".".join(path) or "body", item, MAX_TEXT)
        todo.extend(_children(item, path))
