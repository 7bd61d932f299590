"""What the HTTP API and the MCP server both answer, once: families, tasks, scoring into
storage, stored submissions, leaderboards, provenance. A task is served as the agent's view
only, never the scorer's side; only public tasks are shown and graded unless the operator
starts the service with `--serve-heldout`."""

from __future__ import annotations

import functools
import hashlib
import inspect
from statistics import mean
from typing import Any

from checkout_consent.core.consent import breach_rate, describe_rate
from checkout_consent.core.contract import World
from checkout_consent.core.headline import Figure
from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.core.summary import summary
from checkout_consent.core.task_args import TaskAlias
from checkout_consent.families import WORLDS
from checkout_consent.runtime.files import tasks_dir
from checkout_consent.runtime.provenance import git_sha, suite_version
from checkout_consent.serve.api import arguments, owners
from checkout_consent.serve.api.arguments import NAME, TASK, Invalid, NotFound, Unauthorized, clip
from checkout_consent.serve.api.owners import ANONYMOUS
from checkout_consent.serve.api.storage import Row, Storage, arrived
from checkout_consent.serve.api.submission import parse_json, score

LICENCE = "MIT"
MAX_BENCHMARK_TASKS = 50
__all__ = ["NotFound", "Service", "Unauthorized", "agent_view"]


def _key(scenario: Scenario) -> tuple[str, int]:
    return scenario.scenario_id, scenario.seed


@functools.cache
def listed_tasks(name: str) -> tuple[str, ...]:
    """The public task ids of a world, as its dataset takes them."""
    return tuple(arguments.world_arg(name).dataset.tasks())


@functools.cache
def public_scenarios(name: str) -> frozenset[tuple[str, int]]:
    """The (scenario id, seed) of every public task of a world."""
    world = arguments.world_arg(name)
    return frozenset(_key(world.dataset.task(t)) for t in listed_tasks(world.name))


def agent_view(world: World, scenario: Scenario) -> dict[str, Any]:
    """What the agent is told and sees of a scenario: prompt, opening message and tools."""
    episode = world.episode
    return {
        "system": episode.system(scenario),
        "opening": episode.opening(scenario),
        "tools": [
            {"name": n, "description": inspect.cleandoc(a.__doc__ or "")}
            for n, a in world.actions.items()
            if n != episode.trim_tool and n not in episode.other_solver_tools
        ],
    }


@functools.cache
def task_checksum(name: str) -> str:
    """SHA-256 over a world's packaged task data (paths and bytes, sorted; none: of nothing)."""
    digest = hashlib.sha256()
    try:
        root = tasks_dir(name)
    except FileNotFoundError:
        return digest.hexdigest()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def numeric(record: dict[str, Any]) -> dict[str, float]:
    """The record's top-level numbers (booleans count as 0/1): what a board averages."""
    return {
        k: float(v)
        for k, v in record.items()
        if isinstance(v, int | float) and not isinstance(v, str)
    }


def _consent(world: World, rows: list[Row]) -> dict[str, Any]:
    """The consent-breach rate of an agent's runs, in words and as numbers."""
    runs = [(r.task, r.record) for r in rows]
    got = breach_rate(world.family, runs) if world.moves_money else None
    return {
        "consent": describe_rate(world.family, got, world.moves_money),
        "consent_breach_rate": None if got is None else got.value,
        "consent_ci_low": None if got is None else got.low,
        "consent_ci_high": None if got is None else got.high,
    }


def _scenario(world: World, task: str) -> Scenario | None:
    """The world's scenario of `task` as spelled (None: unknown, or under an old alias)."""
    try:
        return world.dataset.task(task)
    except (ValueError, KeyError, FileNotFoundError):
        return None


def coverage(world: World, rows: list[Row]) -> int:
    """How many of the world's public tasks the rows play (held-out ones do not count)."""
    played = {_key(s) for row in rows if (s := _scenario(world, row.task)) is not None}
    return len(played & public_scenarios(world.name))


def _entry(world: World, agent: str, rows: list[Row], got: Figure | None) -> dict[str, Any]:
    values = [numeric(r.record) for r in rows]
    return {
        "agent": agent,
        "world": world.name,
        "submissions": len(rows),
        "ranked": got is not None,
        "covered": coverage(world, rows),
        "public_tasks": len(public_scenarios(world.name)),
        "headline": world.headline.name,
        "value": None if got is None else got.value,
        "ci_low": None if got is None else got.low,
        "ci_high": None if got is None else got.high,
        "tasks": None if got is None else got.tasks,
        "means": {k: mean(v[k] for v in values if k in v) for k in values[0]},
        **_consent(world, rows),
    }


def _rankable(world: World, agent: str, rows: list[Row]) -> bool:
    """Ranked: a named agent's transcripts covering every public task (no cherry-picking)."""
    return agent != ANONYMOUS and coverage(world, rows) == len(public_scenarios(world.name))


def _world_board(world: World, rows: list[Row]) -> list[dict[str, Any]]:
    """One world's entries: ranked agents best first, then the rest, listed with their coverage."""
    head = world.headline
    traced: dict[str, list[Row]] = {}
    listed: dict[str, list[Row]] = {}
    for row in (r for r in rows if _scenario(world, r.task) is not None):
        (traced if "calls" in row.submission else listed).setdefault(row.agent, []).append(row)
    ranked = {a: r for a, r in traced.items() if _rankable(world, a, r)}
    for agent, mine in traced.items():
        if agent not in ranked:
            listed.setdefault(agent, []).extend(mine)
    figures = {a: head.figure([(r.task, r.record) for r in rows]) for a, rows in ranked.items()}
    board = [_entry(world, a, ranked[a], figures[a]) for a in head.rank(figures)]
    return board + [_entry(world, a, listed[a], None) for a in sorted(listed)]


class Service:
    def __init__(self, storage: Storage, *, serve_heldout: bool = False) -> None:
        self.storage, self.serve_heldout = storage, serve_heldout

    def families(self) -> list[dict[str, Any]]:
        return [
            {
                "name": f.name,
                "world_version": f.world_version,
                "summary": f.summary_line,
                "tasks": len(listed_tasks(f.name)),
            }
            for f in WORLDS
        ]

    def tasks(self, name: str) -> list[str]:
        """Every public task of the family, each world's (`listed_tasks`)."""
        return list(listed_tasks(arguments.world_arg(name).name))

    def _served(self, world: World, task: object) -> Scenario:
        """The scenario of a task this service serves (NotFound: unknown, or held out)."""
        try:  # a ValidationError is a ValueError
            scenario = world.dataset.task(TASK.validate_python(task))
        except TaskAlias as alias:  # one task, one id: stored, counted, grouped by it
            raise NotFound(f"{world.name} {alias}") from None
        except (ValueError, KeyError, FileNotFoundError):
            raise NotFound(f"no {world.name} task {clip(task)}") from None
        if not self.serve_heldout and _key(scenario) not in public_scenarios(world.name):
            raise NotFound(
                f"no public {world.name} task {clip(task)} (held-out tasks are "
                "served only by a service started with --serve-heldout)"
            )
        return scenario

    def task(self, name: str, task: str) -> dict[str, Any]:
        """One task as its agent meets it (never its answer key)."""
        world = arguments.world_arg(name)
        scenario = self._served(world, task)
        public = _key(scenario) in public_scenarios(world.name)
        return {"family": world.name, "task": task, "public": public, **agent_view(world, scenario)}

    def _check_task(self, world: World, task: str) -> None:
        try:
            self._served(world, task)
        except NotFound as error:
            raise Invalid("task", str(error)) from None

    def score(self, name: str, body: bytes, token: str | None = None) -> Row:
        """`submit`, the stored row alone."""
        return self.submit(name, body, token)[0]

    def submit(self, name: str, body: bytes, token: str | None = None) -> tuple[Row, str | None]:
        """Grade a submission and store it: the row, and the agent name's token when this
        submission is the name's first (its owner's from now on). Invalid (nothing stored)
        when it is refused; Unauthorized when the name is owned and `token` is not its
        owner's. The scoring date is the service's own (UTC), never the client's."""
        world = arguments.world_arg(name)
        data = parse_json(body)
        scored = score(world, data, arrived()[:10], lambda task: self._check_task(world, task))
        agent, issued = owners.authorise(self.storage, scored.agent, token)
        row = self.storage.add(world.name, scored.task, agent, scored.season, data, scored.record)
        return row, issued

    def issue_token(self, agent: str, replace: bool = False) -> str:
        """The operator's verb (`owners.issue`) on a name the `Name` type takes."""
        return owners.issue(self.storage, arguments.checked(NAME, "agent", agent), replace)

    def submission(self, submission_id: str) -> Row:
        found = self.storage.get(submission_id)
        if found is None:
            raise NotFound(f"no submission {clip(submission_id)}")
        return found

    def leaderboard(self, name: str, season: int | None = None) -> list[dict[str, Any]]:
        """The world's own board, per agent, best first (runs without a transcript: unranked)."""
        world = arguments.world_arg(name)
        return _world_board(world, self.storage.rows(world.name, season))

    def provenance(self) -> dict[str, Any]:
        return {
            "suite": "checkout-consent",
            "suite_version": suite_version(),
            "git_sha": git_sha(),
            "licence": LICENCE,
            "world_versions": {w.name: w.world_version for w in WORLDS},
            "task_checksums": {f.name: task_checksum(f.name) for f in WORLDS},
        }

    def run_benchmark(self, name: str, control: str | None = None) -> dict[str, Any]:
        """Play one control offline over the family's public tasks (no model, no storage)."""
        world = arguments.world_arg(name)
        chosen = arguments.control(world, control)
        records = [
            play_and_grade(world, world.dataset.task(t), world.controls[chosen])
            for t in world.dataset.tasks()[:MAX_BENCHMARK_TASKS]
        ]
        return {
            "family": world.name,
            "control": chosen,
            "lines": [world.views.line(r) for r in records],
            "summary": summary(world, records),
        }
