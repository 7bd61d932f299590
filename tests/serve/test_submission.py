"""A family with its own submission scorer (grocery's way) goes through it, not the trace
path; its refusals become Invalid naming the field."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

from checkout_consent.families import world_named
from checkout_consent.serve.api.submission import Invalid, parse_json, score


class InvalidSubmission(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def cart_scorer(data: Mapping[str, Any], today: str | None = None) -> dict[str, Any]:
    if not isinstance(data.get("cart"), list):
        raise InvalidSubmission("cart", "a cart is a list of lines")
    return {
        "task_id": "normal-week",
        "season": 2,
        "lines": len(data["cart"]),
        "hard_fails": ["over_budget"],
        "scored_on": today,
    }


WORLD = dataclasses.replace(world_named("pizza"), score_submission=cart_scorer)


def test_submission__a_family_scorer_is_the_one_path() -> None:
    scored = score(WORLD, {"cart": [1, 2], "agent": {"name": "bot"}}, "2026-12-01")
    assert scored == ("normal-week", "bot", 2, cart_scorer({"cart": [1, 2]}, "2026-12-01"))


def test_submission__a_family_scorer_gets_the_body_without_the_agent_card() -> None:
    seen: list[Mapping[str, Any]] = []
    world = dataclasses.replace(
        WORLD, score_submission=lambda data, today: seen.append(data) or cart_scorer(data, today)
    )
    score(world, {"cart": [], "agent": {"name": "bot"}})
    assert seen == [{"cart": []}]


def test_submission__a_family_scorer_refusal_names_its_field() -> None:
    with pytest.raises(Invalid) as refused:
        score(WORLD, {"cart": "nope"})
    assert refused.value.field == "cart"


@pytest.mark.parametrize(
    "body",
    [b"-Infinity", b'{"a": Infinity}', b'{"a": 1e400}', b"\xff\xfe", b'{"a": "\\ud800"}' + b"x"],
)
def test_submission__hostile_json_is_refused_as_the_body(body: bytes) -> None:
    with pytest.raises(Invalid) as refused:
        parse_json(body)
    assert refused.value.field == "body"
