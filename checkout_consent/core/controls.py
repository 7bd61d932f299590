"""Scripted control agents: pure policies of the scenario (read from structure, never from
text the model reads) and the conversation as plain `Msg` records."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from checkout_consent.core.scenario import Scenario

Role = Literal["system", "user", "assistant", "tool"]
# The request header that carries a run's scenario reference to `serve-controls`.
SCENARIO_HEADER = "x-cc-scenario"


@dataclass(frozen=True)
class CallRequest:
    """A tool call the agent made: an id, the tool and its arguments."""

    id: str
    tool: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Msg:
    """One message of the transcript as a control sees it."""

    role: Role
    text: str = ""
    calls: tuple[CallRequest, ...] = ()
    call_id: str | None = None  # for role == "tool": the call this answers
    error: bool = False  # for role == "tool": the call failed

    @functools.cached_property
    def tokens(self) -> int:
        """Its deterministic token count (`count_tokens` of the text and of each call's
        JSON arguments), counted once: a turn counts every message the agent sees."""
        return count_tokens(self.text) + sum(count_tokens(json.dumps(c.args)) for c in self.calls)


@dataclass(frozen=True)
class Reply:
    """A control's turn: some text and/or tool calls (tool name, arguments)."""

    text: str = ""
    calls: tuple[tuple[str, dict[str, Any]], ...] = field(default_factory=tuple)


Policy = Callable[[Scenario, Sequence[Msg]], Reply]


def call(tool: str, **args: Any) -> Reply:
    """A reply that makes exactly one tool call."""
    return Reply(calls=((tool, args),))


def say(text: str) -> Reply:
    """A reply with text and no tool call (ends an episode in most families)."""
    return Reply(text=text)


def next_call_id(transcript: Sequence[Msg]) -> int:
    """The number of tool calls made so far: makes tool call ids deterministic."""
    return sum(len(m.calls) for m in transcript if m.role == "assistant")


def call_ids(transcript: Sequence[Msg], reply: Reply) -> list[str]:
    start = next_call_id(transcript)
    return [f"call_{start + i}" for i in range(len(reply.calls))]


def count_tokens(text: str) -> int:
    """A deterministic token count for controls: one token per four characters."""
    return max(1, (len(text) + 3) // 4)


def transcript_tokens(transcript: Sequence[Msg]) -> int:
    return sum(m.tokens for m in transcript)


class ControlRegistry:
    """Controls by full name (`<family>-<name>`), and those playing every family by bare name."""

    def __init__(
        self,
        controls: dict[str, dict[str, Policy]],
        every_family: dict[str, Policy] | None = None,
        of_world: Callable[[str], tuple[str, Collection[str]]] | None = None,
    ) -> None:
        # a world's name -> the family it belongs to and the controls it has (None: a
        # world is its family and has every control of it)
        self.of_world = of_world
        self._policies = {
            f"{family}-{name}": policy
            for family, named in controls.items()
            for name, policy in named.items()
        }
        self._every = dict(every_family or {})

    def get(self, key: str) -> Policy:
        if key in self._every:
            return self._every[key]
        if key not in self._policies:
            known = ", ".join(sorted([*self._policies, *self._every]))
            raise KeyError(f"unknown control {key!r}; known controls: {known}")
        return self._policies[key]

    def owner(self, key: str) -> str | None:
        """The family a control belongs to; None for one that plays every family."""
        self.get(key)
        return None if key in self._every else key.split("-", 1)[0]

    def refusal(self, key: str, world: str) -> str | None:
        """Why control `key` cannot play a sample of `world` (None: it can)."""
        owner = self.owner(key)
        if owner is None:
            return None
        try:
            family, has = self.of_world(world) if self.of_world else (world, None)
        except KeyError as err:
            return str(err.args[0])
        if owner != family:
            return f"control/{key} is a {owner} control; it cannot play {world[:60]}"
        if has is not None and key.split("-", 1)[1] not in has:
            return f"control/{key} has no policy in {world[:60]}"
        return None

    def family_of(self, key: str) -> str:
        """The family a control belongs to (KeyError for one that plays every family)."""
        owner = self.owner(key)
        if owner is None:
            raise KeyError(f"control {key!r} plays every family; it belongs to none")
        return owner

    def names(self, family: str | None = None) -> list[str]:
        """The controls of `family` (all of them, every-family ones included, if None)."""
        if family is None:
            return sorted([*self._policies, *self._every])
        return sorted(k for k in self._policies if k.startswith(family + "-"))


class Caught(NamedTuple):
    """One exploit, played alone, and the record line that caught it (None: not caught)."""

    what: str
    by: str | None
    scored: str = ""

    def line(self) -> str:
        if self.by is None:
            return f"exploit: {self.what} -> NOT caught: {self.scored}"
        return f"exploit: {self.what} -> caught: {self.by}"


@dataclass(frozen=True)
class Exploit:
    """A trick of a reward-hacker control (`<family>-hacker`: what an agent bent on the
    score would try), played alone: its policy, its scenario, the record line catching it."""

    what: str
    policy: Policy
    scenario: Callable[[], Scenario]
    caught: Callable[[dict[str, Any]], str | None]

    @staticmethod
    def zeroed(key: str, name: str) -> Callable[[dict[str, Any]], str | None]:
        """A catch: the record scores 0 with `name` among its `key` (a list, or a mapping
        whose true entries count)."""

        def caught(record: dict[str, Any]) -> str | None:
            got = record[key]
            found = [k for k, v in got.items() if v] if isinstance(got, dict) else got
            if name not in found or record["score"] != 0.0:
                return None
            return f"score {record['score']:.2f}, {key} {', '.join(found)}"

        return caught


def hacker(exploits: Sequence[Exploit], pick: Callable[[Scenario], int]) -> Policy:
    """The hacker control as one policy: exploit `pick(scenario)` (mod their number)."""

    def policy(scenario: Scenario, transcript: Sequence[Msg]) -> Reply:
        return exploits[pick(scenario) % len(exploits)].policy(scenario, transcript)

    return policy
