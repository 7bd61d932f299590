"""The family contract: what a family hands the engine, typed, in one object.

A family is one `FamilySpec` per world (built in its `__init__`) and one line in
`families.py`, whose `Board` says what the leaderboard adds beside the world's headline.
Everything here is pure: no Inspect, no I/O, so a log can be re-graded offline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from checkout_consent.core.controls import Caught, Policy
from checkout_consent.core.headline import Headline
from checkout_consent.core.spec import parse_seeds
from checkout_consent.core.trace import Replay
from checkout_consent.core.world import Action

Record = dict[str, Any]
# (state, tool, args) -> the args to apply: work a tool does outside the pure world before
# its call is traced (a family may run a command in a sandbox and pass the output in).
PrepareCall = Callable[[Any, str, dict[str, Any]], dict[str, Any]]
# control name (without the family prefix) -> the records its samples produced
ControlRecords = dict[str, list[Record]]
# the records of one submission -> group -> (value in 0..1, a label drawn on its bar or None)
Groups = Callable[[Sequence[Record]], dict[str, tuple[float, str | None]]]


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
    detail: str | None = None  # why the turn ended the run (a provider's context refusal)


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

    A run is a sequence of phases (days, or one). Each phase may open with
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


@dataclass(frozen=True)
class FamilySpec:
    """A world of a scenario family: its actions, initial state, grader, version, how a run
    is paced, its headline and its controls. Presentation (CLI views, board columns,
    service schemas) lives in the layer that presents, registered in the roster
    (`checkout_consent.families`), which lists one spec per world; what the board adds
    is declared there with `Board` (below), which the leaderboard reads."""

    name: str  # the family
    version: int  # world + grader version: Task(version=...), the record, cassette goldens
    summary_line: str  # one line: what the agent must do
    actions: Mapping[str, Action]
    initial: Callable[[Scenario], Any]
    grade: Grader
    metrics: Callable[[Any], dict[str, float]]
    explain: Callable[[Any], str]
    episode: Episode
    headline: Headline  # the one number every surface reports and ranks by
    # the registered Inspect task's factory, loaded on demand (Inspect is imported then)
    task_factory: Callable[[], Callable[..., Any]]
    public_args: Mapping[str, str]  # task arguments of the public set, e.g. {"seeds": "0-9"}
    task_params: Mapping[str, str]  # every -T parameter -> what it means
    controls: Mapping[str, Policy]  # name (no family prefix) -> scripted policy
    sanity_controls: tuple[str, ...]
    reference_control: str
    check_sanity: Callable[[ControlRecords], list[str]]  # problems; empty means sane
    scenario_for: Callable[[str], Scenario]  # `score --task ITEM`: the scenario it names
    sample_id: Callable[[Scenario], str]  # the Inspect sample id of a scenario
    # reference cassettes: (provider, control) pairs recorded by `record-references`
    recorded: tuple[tuple[str, str], ...] = ()
    # the public task ids the scoring service lists (each one `scenario_for` accepts);
    # None: the public seeds, for a family whose public set is `seeds`
    task_ids: Callable[[], list[str]] | None = None
    # a family's own submission scorer for the scoring service (pure; raises ValueError
    # naming the bad field; unknown fields refused), called with the submission and the
    # service's scoring date (YYYY-MM-DD; None offline); its record names the graded task
    # as `task_id`. None: the saved-trace path, {"task": ID, "calls": [...]} graded by
    # core.offline.grade_saved.
    score_submission: Callable[[Mapping[str, Any], str | None], Record] | None = None
    # called by the offline driver before it applies an agent's call, as the family's
    # Inspect tools do before they trace it; None: the call is applied as made
    prepare_call: PrepareCall | None = None
    # A pure world's records depend only on the sample and the model's outputs, never on
    # the machine that plays it, so its samples may be played on several machines and the
    # logs merged (`checkout-consent suite --shard K/N`). False for a world whose grading
    # does work outside the pure world on the machine that plays it (executing a build).
    pure: bool = True
    epochs: int = 1
    # arguments the harness adds to a traced call, never the model
    harness_args: frozenset[str] = frozenset()
    # the reference the packaged tasks give for a logged one (same id, seed, public knobs);
    # the scorer refuses a log whose carried reference differs. The default is for a family
    # without public knobs: the same reference with no params.
    rebuild: Callable[[Scenario], Scenario] = lambda ref: ref.model_copy(update={"params": {}})
    # A variant is a world of its own inside a family, with its own task and version: its
    # samples carry `scenario_id == variant` (the family's task takes `-T scenario=VARIANT`
    # as an alias of the variant's task).
    variant: str | None = None
    task_name: str | None = None  # the registered task; default: the family's name
    # the task a record was played on (epochs of one task are averaged before the headline)
    task_of: Callable[[Record], str] = lambda record: str(record["task_id"])
    # whether the agent moves money: its records carry a `consent` ledger (core.consent);
    # False: the surfaces say "no money movement" where the consent-breach rate would be
    moves_money: bool = True
    # the family's reward-hacker control (`hacker` in `controls`): each of its exploits
    # played alone and judged by the line of its record that caught it; `sanity` prints
    # them and fails on one not caught. None: the family has no hacker control.
    exploits: Callable[[FamilySpec], Sequence[Caught]] | None = None

    @property
    def label(self) -> str:
        """How the CLI names it: `family`, or `family/variant`."""
        return self.name if self.variant is None else f"{self.name}/{self.variant}"

    @property
    def task(self) -> str:
        """The registered Inspect task: `inspect eval checkout_consent/<task>`."""
        return self.task_name or self.name

    @property
    def world_version(self) -> str:
        base = self.name if self.variant is None else f"{self.name}-{self.variant}"
        return f"{base}-{self.version}"

    def no_param(self, key: str) -> str:
        """The one line refusing a `-T` key the world does not take (`run` and the task
        itself under `inspect eval`, where Inspect alone would drop it with a warning)."""
        return (
            f"{self.label} has no task parameter {key[:60]!r}; parameters: "
            f"{', '.join(sorted(self.task_params))}"
        )

    def public_task_ids(self) -> list[str]:
        """What the scoring service lists: `task_ids`, or the public seeds."""
        if self.task_ids is not None:
            return self.task_ids()
        seeds = self.public_args.get("seeds")
        return [] if seeds is None else [str(s) for s in parse_seeds(seeds)]


def choose_world(worlds: Sequence[FamilySpec], family: str, scenario_id: object) -> FamilySpec:
    """Of `worlds`, the one that plays and grades a sample of `family` with this scenario
    id: the variant it names, else the family's main world (KeyError if none)."""
    mine = [w for w in worlds if w.name == family]
    for spec in mine:
        if spec.variant is not None and spec.variant == scenario_id:
            return spec
    for spec in mine:
        if spec.variant is None:
            return spec
    raise KeyError(f"unknown family {family[:100]!r}")


@dataclass(frozen=True)
class Breakdown:
    """A bar chart beside the score-against-cost plot."""

    title: str
    ylabel: str
    groups: Groups
    not_applicable: str  # the legend's words for a group a submission never met


@dataclass(frozen=True)
class Column:
    """A column beside the headline: `cell` shows a submission's runs' records as text."""

    heading: str
    cell: Callable[[Sequence[Record]], str]


@dataclass(frozen=True)
class Scatter:
    """The headline (y, with its 95% CI) against `x` of the runs' records, one point per
    submission, controls marked."""

    title: str
    xlabel: str
    x: Callable[[Sequence[Record]], float]


@dataclass(frozen=True)
class Board:
    """What a world adds to the leaderboard beside its headline, declared in the roster.

    The board is generic, one table per world (a family's main world and each variant): a
    world may have seasons (task sets added over time, each with its own board), columns
    beside its headline (figures of the runs' records, reported, never ranked), a breakdown
    plot (a value per group, one bar per submission), a scatter plot (the headline against
    one figure per submission), a section of its own on the agent card, and controls whose
    example submissions are played without cassettes."""

    # season k -> the task ids it adds; a season's board plays every task up to it, and
    # "All time" plays season 1's. Empty: the family has one public set and one board.
    seasons: Callable[[], Mapping[int, tuple[str, ...]]] = dict
    breakdown: Breakdown | None = None
    columns: tuple[Column, ...] = ()
    scatter: Scatter | None = None
    note: str = ""  # said under the world's table (Markdown inline code allowed)
    # a section of the agent card only this family has: (YAML key, its strict model)
    card_section: tuple[str, type[BaseModel]] | None = None
    card_example: Mapping[str, Any] | None = None  # the section on the example cards
    # controls whose example submissions are played through the control provider directly,
    # with no cassette (even where one is recorded: a month's cassette costs review and test
    # time for no new point)
    direct_examples: tuple[str, ...] = ()
