"""The family contract: what a family hands the engine, typed, in one object.

A family is one `FamilySpec` (built in its `__init__`) and one line in `families.py`.
Everything here is pure: no Inspect, no I/O, so a log can be re-graded offline.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from checkout_consent.core.controls import Policy
from checkout_consent.core.spec import parse_seeds
from checkout_consent.core.trace import Replay
from checkout_consent.core.world import Action

Record = dict[str, Any]
# (state, tool, args) -> the args to apply: work a tool does outside the pure world before
# its call is traced (shopkit runs a command in its sandbox and passes the output in).
PrepareCall = Callable[[Any, str, dict[str, Any]], dict[str, Any]]
# control name (without the family prefix) -> the records its samples produced
ControlRecords = dict[str, list[Record]]


class Scenario(BaseModel):
    """Which world a sample plays: a reference, never an answer key. The family's dataset
    rebuilds everything else (spec, task, answer key) from the packaged tasks/ data."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    family: str
    scenario_id: str
    seed: int
    params: dict[str, Any] = {}  # public knobs only (e.g. replies on/off, a custom brief)
    # the world version the sample was played on (FamilySpec.version; set by
    # runtime.tasks.sample); None only in references built for offline play
    version: int | None = None


class Generation(BaseModel):
    """One model turn as the solver saw it: tokens, tool calls made, why it stopped."""

    model_config = ConfigDict(frozen=True)

    phase: int
    input_tokens: int
    output_tokens: int
    tool_calls: int
    stop_reason: str
    latency_s: float = 0.0  # the provider's wall time for the turn: provenance, never a record


Turns = tuple[Generation, ...]
# (scenario, replayed trace, the run's model turns) -> the family's domain record
Grader = Callable[[Scenario, Replay[Any], Turns], BaseModel]


def _one_phase(state: Any) -> int | None:
    return 1


def _no_message(state: Any) -> str | None:
    return None


def _no_recap(state: Any) -> str:
    return "Earlier messages were trimmed to fit the context budget."


def shown_chars(tool: str, args: Mapping[str, Any], observation: str) -> int:
    """What one traced call's result put into the conversation, in characters: the world's
    observation. The context budget counts this and the phase messages, never what the
    model wrote (its text, its arguments: Inspect may fill in defaults or turn 5 into 5.0),
    so the Inspect solver and the offline driver trim at the same phase openings."""
    return len(observation)


@dataclass(frozen=True)
class Episode:
    """How a run is paced, the same in Inspect's solver and in the offline driver.

    A run is a sequence of phases (storefront: days; others: one). Each phase may open with
    a message, then the agent acts for at most `turns` turns; a successful call of a stop
    tool, or a reply without calls (when there is no `nudge`), ends the phase. If the phase
    is still the same afterwards, `close_tool` is called for the agent (origin "solver");
    without a close tool the run ends there. `phase(state)` is None once the run is over.
    """

    system: Callable[[Scenario], str]
    opening: Callable[[Scenario], str]
    turns: int
    phase: Callable[[Any], int | None] = _one_phase
    phase_message: Callable[[Any], str | None] = _no_message
    close_tool: str | None = None
    stop_tools: tuple[str, ...] = ()
    nudge: str | None = None
    # The context budget: characters the world has shown the agent since the run began or
    # was last trimmed (phase messages and `shown_chars` of every call). When a phase would
    # open above it, the conversation after the opening message is replaced by
    # `recap(state)` (e.g. the agent's notes) and `trim_tool` is called for the agent
    # (origin "solver"), so the trace, and so the record, says on which phase it happened.
    # None: never trimmed.
    context_budget: int | None = None
    trim_tool: str | None = None
    recap: Callable[[Any], str] = _no_recap

    @property
    def solver_tools(self) -> tuple[str, ...]:
        """The tools the solver may call for the agent (no arguments, origin "solver")."""
        return tuple(t for t in (self.close_tool, self.trim_tool) if t is not None)

    def over_budget(self, shown: int) -> bool:
        """Whether a phase opening after `shown` characters must trim first."""
        return (self.context_budget is not None and self.trim_tool is not None
                and shown > self.context_budget)


@dataclass(frozen=True)
class FamilySpec:
    """A scenario family: its world, its grader, how a run is paced, its controls, and how
    the command line shows it. One per family, listed in `checkout_consent.families`."""

    name: str
    version: int  # world + grader version: Task(version=...), the record, cassette goldens
    summary_line: str  # one line: what the agent must do
    actions: Mapping[str, Action]
    initial: Callable[[Scenario], Any]
    grade: Grader
    metrics: Callable[[Any], dict[str, float]]
    explain: Callable[[Any], str]
    episode: Episode
    public_args: Mapping[str, str]  # task arguments of the public set, e.g. {"seeds": "0-9"}
    task_params: Mapping[str, str]  # every -T parameter -> what it means
    controls: Mapping[str, Policy]  # name (no family prefix) -> scripted policy
    sanity_controls: tuple[str, ...]
    reference_control: str
    check_sanity: Callable[[ControlRecords], list[str]]  # problems; empty means sane
    line: Callable[[Record], str]  # one printed line per sample
    summary: Callable[[Sequence[Record]], str]  # the summary block for a set of samples
    list_items: Callable[[], list[str]]  # what `checkout-consent list <family>` prints
    show: Callable[[str], str]  # `checkout-consent show <family> <item>`
    scenario_for: Callable[[str], Scenario]  # `score --task ITEM`: the scenario it names
    sample_id: Callable[[Scenario], str]  # the Inspect sample id of a scenario
    # reference cassettes: (provider, control) pairs recorded by `record-references`
    recorded: tuple[tuple[str, str], ...] = ()
    add_commands: Callable[[argparse.ArgumentParser], None] | None = None
    # the public task ids the scoring service lists (each one `scenario_for` accepts);
    # None: the public seeds, for a family whose public set is `seeds`
    task_ids: Callable[[], list[str]] | None = None
    # a family's own submission scorer for the scoring service (pure; raises ValueError
    # naming the bad field; unknown fields refused), called with the submission and the
    # service's scoring date (YYYY-MM-DD; None offline); its record names the graded task
    # as `task_id`. None: the saved-trace path, {"task": ID, "calls": [...]} graded by
    # core.offline.grade_saved. Grocery scores a cart and an agent card this way.
    score_submission: Callable[[Mapping[str, Any], str | None], Record] | None = None
    # called by the offline driver before it applies an agent's call, as the family's
    # Inspect tools do before they trace it; None: the call is applied as made
    prepare_call: PrepareCall | None = None
    epochs: int = 1
    # arguments the harness adds to a traced call, never the model (shopkit's `result`)
    harness_args: frozenset[str] = frozenset()
    # the reference the packaged tasks give for a logged one (same id, seed, public knobs);
    # the scorer refuses a log whose carried reference differs. The default is for a family
    # without public knobs: the same reference with no params.
    rebuild: Callable[[Scenario], Scenario] = lambda ref: ref.model_copy(update={"params": {}})
    extra: Mapping[str, Any] = field(default_factory=dict)
    # A scenario that is a world of its own (storefront's adversary_v1): its scenario id ->
    # its spec (same family name, its own `variant`, version, actions, grader, controls).
    # The engine asks `for_scenario` wherever it holds a reference; the task dispatches on
    # its -T `scenario`.
    scenarios: Mapping[str, FamilySpec] = field(default_factory=dict)
    variant: str | None = None  # set on a scenario's own spec: its scenario id

    @property
    def label(self) -> str:
        """How the CLI names it: `storefront`, or `storefront/adversary_v1`."""
        return self.name if self.variant is None else f"{self.name}/{self.variant}"

    def for_scenario(self, scenario_id: object) -> FamilySpec:
        """The spec that plays and grades `scenario_id`: its own, or this one."""
        own = self.scenarios.get(scenario_id) if isinstance(scenario_id, str) else None
        return self if own is None else own

    def for_args(self, args: Mapping[str, Any] | None) -> FamilySpec:
        """The spec a run with these -T arguments plays (its `scenario` argument)."""
        return self.for_scenario((args or {}).get("scenario"))

    def every_world(self) -> tuple[FamilySpec, ...]:
        """This spec and each scenario's own spec, in order (what `run` and sanity play)."""
        return (self, *self.scenarios.values())

    @property
    def task(self) -> str:
        """The registered Inspect task: `inspect eval checkout_consent/<name>`."""
        return self.name

    @property
    def world_version(self) -> str:
        base = self.name if self.variant is None else f"{self.name}-{self.variant}"
        return f"{base}-{self.version}"

    def public_task_ids(self) -> list[str]:
        """What the scoring service lists: `task_ids`, or the public seeds."""
        if self.task_ids is not None:
            return self.task_ids()
        seeds = self.public_args.get("seeds")
        return [] if seeds is None else [str(s) for s in parse_seeds(seeds)]


def dispatching_controls(spec: FamilySpec) -> dict[str, Policy]:
    """The family's controls by name, each playing the policy of the world its scenario
    belongs to (`storefront-oracle` plays v0's oracle on adversary_v0 and v1's on
    adversary_v1). A control a scenario does not have refuses with one line."""
    worlds = spec.every_world()
    names = dict.fromkeys(n for w in worlds for n in w.controls)

    def dispatch(name: str) -> Policy:
        def policy(scenario: Scenario, transcript: Sequence[Any]) -> Any:
            own = spec.for_scenario(scenario.scenario_id).controls.get(name)
            if own is None:
                raise ValueError(f"control {spec.name}-{name} has no policy for scenario "
                                 f"{scenario.scenario_id}")
            return own(scenario, transcript)

        return policy

    return {n: spec.controls[n] if not spec.scenarios else dispatch(n) for n in names}
