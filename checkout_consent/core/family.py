"""What a family hands the engine: its actions, how to build a world, how to grade a run.

Everything here is pure: no Inspect, so a log can be re-graded offline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from checkout_consent.core.trace import Replay
from checkout_consent.core.world import Action


class Scenario(BaseModel):
    """Which world a sample plays: the family, a scenario id, the seed and spec parameters."""

    model_config = ConfigDict(frozen=True)

    family: str
    scenario_id: str
    seed: int
    params: dict[str, Any] = {}


class Generation(BaseModel):
    """One model turn as the solver saw it: tokens, tool calls made, why it stopped."""

    model_config = ConfigDict(frozen=True)

    phase: int
    input_tokens: int
    output_tokens: int
    tool_calls: int
    stop_reason: str


class RunInfo(BaseModel):
    """Facts about the run that are not in the world: who played, with what, how long."""

    model_config = ConfigDict(frozen=True)

    model_id: str
    epoch: int = 1
    inspect_version: str
    suite_version: str
    git_sha: str | None
    generations: tuple[Generation, ...] = ()

    @property
    def input_tokens(self) -> int:
        return sum(g.input_tokens for g in self.generations)

    @property
    def output_tokens(self) -> int:
        return sum(g.output_tokens for g in self.generations)


Grader = Callable[[Scenario, Replay[Any], RunInfo], BaseModel]


@dataclass(frozen=True)
class Family:
    """A scenario family as the engine sees it."""

    name: str
    version: str
    actions: Mapping[str, Action]
    initial: Callable[[Scenario], Any]
    grade: Grader
    metrics: Callable[[Any], dict[str, float]]
    explain: Callable[[Any], str]
