"""The family contract: what a world hands the engine, typed, in one object. Pure: no
Inspect, no I/O, so a log can be re-graded offline."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from checkout_consent.core.consent_lines import Breaches
from checkout_consent.core.controls import Caught, Policy
from checkout_consent.core.headline import Headline
from checkout_consent.core.presentation import Board, Record, Views
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.task_args import parse_seeds
from checkout_consent.core.trace import Replay
from checkout_consent.core.world import Action

# (state, tool, args) -> the args to apply: work a tool does outside the pure world before
# its call is traced (a family may run a command in a sandbox and pass the output in).
PrepareCall = Callable[[Any, str, dict[str, Any]], dict[str, Any]]
# control name (without the family prefix) -> the records its samples produced
ControlRecords = dict[str, list[Record]]


class Generation(BaseModel):
    """One model turn as the solver saw it: tokens, tool calls made, why it stopped."""

    model_config = ConfigDict(frozen=True)

    phase: int
    input_tokens: int
    output_tokens: int
    tool_calls: int
    stop_reason: str
    latency_s: float = 0.0  # the provider's wall time for the turn: provenance, never a record
    detail: str | None = None  # why the turn ended the run (a provider's context refusal)


Turns = tuple[Generation, ...]
# (scenario, replayed trace, the run's model turns) -> the family's domain record
Grader = Callable[[Scenario, Replay[Any], Turns], BaseModel]


@dataclass(frozen=True)
class Episode:
    """How a run is paced, the same in Inspect's solver and in the offline driver
    (core.pacing; docs/design.md): phases, each of at most `turns` turns, ended by a stop
    tool or a reply without calls; `close_tool` closes a phase left open, and
    `phase(state)` is None once the run is over."""

    system: Callable[[Scenario], str]
    opening: Callable[[Scenario], str]
    turns: int
    phase: Callable[[Any], int | None] = lambda state: 1
    phase_message: Callable[[Any], str | None] = lambda state: None
    close_tool: str | None = None
    stop_tools: tuple[str, ...] = ()
    nudge: str | None = None
    # characters shown since the last trim above which a phase opens by replacing the
    # conversation after the opening with `recap(state)` and calling `trim_tool` (origin
    # "solver", so the trace says where); None: never trimmed
    context_budget: int | None = None
    trim_tool: str | None = None
    recap: Callable[[Any], str] = lambda state: (
        "Earlier messages were trimmed to fit the context budget."
    )
    # actions the world also accepts from another solver's tools (e.g. Inspect's own bash on
    # a sandboxed build); the task's own agent is never shown them
    other_solver_tools: tuple[str, ...] = ()

    @property
    def solver_tools(self) -> tuple[str, ...]:
        """The tools the solver may call for the agent (no arguments, origin "solver")."""
        return tuple(t for t in (self.close_tool, self.trim_tool) if t is not None)

    def over_budget(self, shown: int) -> bool:
        """Whether a phase opening after `shown` characters must trim first."""
        return (
            self.context_budget is not None
            and self.trim_tool is not None
            and shown > self.context_budget
        )


class EvalTask(BaseModel):
    """One registered Inspect task of a world (`eval.yaml`'s `tasks`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")
    dataset_samples: int = Field(ge=1)  # samples of the public set (a test counts them)


class EvalMetadata(BaseModel):
    """What a run needs from the machine (`eval.yaml`'s `metadata`): sandboxes, internet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sandbox: tuple[Literal["solver", "scorer"], ...]  # empty: nothing runs in a sandbox
    requires_internet: StrictBool


class Meta(BaseModel):
    """A world's static metadata: its `eval.yaml` (inspect_evals' layout), read once."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    description: str  # one line: what the agent must do
    # "N-X": N the world and grader version (records, cassette goldens, Task(version=N));
    # X a letter for a change that moves no figure (docs, interface)
    version: str = Field(pattern=r"^[1-9][0-9]*-[A-Z]$")
    tags: tuple[str, ...]
    seed_document: str  # the specification whose facts and figures it carries
    family: str  # the family whose concepts it shares: its controls are `<family>-<name>`
    scenario: str | None = None  # a world of a family beside its first: its records say so
    tasks: tuple[EvalTask, ...] = Field(min_length=1, max_length=1)
    metadata: EvalMetadata

    @property
    def name(self) -> str:
        """The world: its registered task, folder, roster entry and label everywhere."""
        return self.tasks[0].name

    @property
    def number(self) -> int:
        return int(self.version.partition("-")[0])

    @property
    def world_version(self) -> str:
        """What each record carries: `<family>[-<scenario>]-<N>`."""
        return "-".join(x for x in (self.family, self.scenario, str(self.number)) if x)


@dataclass(frozen=True)
class Dataset:
    """A world's tasks: the public set, one task by id, a logged one's packaged reference."""

    public_args: Mapping[str, str]  # task arguments of the public set, e.g. {"seeds": "0-9"}
    task: Callable[[str], Scenario]  # `score --task ITEM`: the scenario it names
    # the Inspect sample id of a scenario; default: its scenario id
    sample_id: Callable[[Scenario], str] = lambda scenario: scenario.scenario_id
    # the public task ids (each one `task` accepts); None: the public seeds
    task_ids: Callable[[], list[str]] | None = None
    # the reference the packaged tasks give for a logged one (the scorer refuses a log
    # whose carried reference differs); default: a world without public knobs
    rebuild: Callable[[Scenario], Scenario] = lambda ref: ref.model_copy(update={"params": {}})
    # the task a record was played on (epochs of one task are averaged before the headline)
    task_of: Callable[[Record], str] = lambda record: str(record["task_id"])
    # task arguments that only choose which tasks are played: a log may name part of the
    # public set with them (`submit validate` lists it partial)
    choosers: tuple[str, ...] = ()

    def tasks(self) -> list[str]:
        """The public task ids: `task_ids`, or the public seeds."""
        if self.task_ids is not None:
            return self.task_ids()
        seeds = self.public_args.get("seeds")
        return [] if seeds is None else [str(s) for s in parse_seeds(seeds)]


class Controls(dict[str, Policy]):
    """A world's scripted controls by name (no family prefix), with sanity's settings."""

    def __init__(
        self,
        policies: Mapping[str, Policy],
        *,
        sanity: tuple[str, ...],
        reference: str,
        idle: str,
        check_sanity: Callable[[ControlRecords], list[str]],  # problems; empty means sane
        # reference cassettes: (provider, control) pairs recorded by `record-references`
        recorded: tuple[tuple[str, str], ...] = (),
        # the reward-hacker's exploits, each played alone; `sanity` fails on one not caught
        exploits: Callable[[World], Sequence[Caught]] | None = None,
    ) -> None:
        super().__init__(policies)
        self.sanity = sanity
        self.reference = reference
        self.idle = idle
        self.check_sanity = check_sanity
        self.recorded = recorded
        self.exploits = exploits


@dataclass(frozen=True)
class World:
    """A world: what the engine plays and grades, its tasks, controls and presentation."""

    meta: Meta
    actions: Mapping[str, Action]
    initial: Callable[[Scenario], Any]
    grade: Grader
    episode: Episode
    headline: Headline  # the one number every surface reports and ranks by
    dataset: Dataset
    controls: Controls
    metrics: Callable[[Any], dict[str, float]]
    explain: Callable[[Any], str]
    views: Views = Views()
    board: Board = field(default_factory=lambda: Board())
    # a world's own submission scorer for the scoring service (pure; ValueError naming the
    # bad field), given the service's date (None offline); None: core.offline.grade_saved
    score_submission: Callable[[Mapping[str, Any], str | None], Record] | None = None
    # called by the offline driver before it applies an agent's call, as the world's
    # Inspect tools do before they trace it; None: the call is applied as made
    prepare_call: PrepareCall | None = None
    # whether records depend only on the sample and the model's outputs, so samples may be
    # played on several machines (`suite --shard K/N`); False when grading runs a build
    pure: bool = True
    epochs: int = 1
    harness_args: frozenset[str] = frozenset()  # arguments the harness adds, never the model
    # whether the agent moves money: its records carry a `consent` ledger (core.consent)
    moves_money: bool = True
    # what a consent breach is here, and whose rate the world measures
    breaches: Breaches = Breaches()

    @property
    def name(self) -> str:
        """The world's name (`Meta.name`)."""
        return self.meta.name

    @property
    def family(self) -> str:
        """The family it belongs to: its controls' prefix and its random streams' name."""
        return self.meta.family

    @property
    def version(self) -> int:
        return self.meta.number

    @property
    def world_version(self) -> str:
        return self.meta.world_version

    @property
    def summary_line(self) -> str:
        return self.meta.description

    def graded(self, scenario: Scenario, replay: Replay[Any], turns: Turns) -> BaseModel:
        """The world's record of a replayed run, stamped with its world version."""
        return self.stamped(self.grade(scenario, replay, turns))

    def stamped(self, record: BaseModel) -> BaseModel:
        """`record` with this world's version in its `world_version` field; TypeError for a
        record type that does not declare it (pydantic would drop the stamp silently)."""
        if "world_version" not in type(record).model_fields:
            raise TypeError(f"{type(record).__name__} declares no world_version field")
        return record.model_copy(update={"world_version": self.world_version})
