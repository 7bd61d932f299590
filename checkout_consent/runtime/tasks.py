"""Inspect glue: a world's Task from the world, its scenarios and its tools."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Iterator, Sequence

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Scorer
from inspect_ai.tool import ToolDef

from checkout_consent.core.contract import World
from checkout_consent.core.scenario import Scenario
from checkout_consent.runtime.compat import active_model_api, prerequisite_error
from checkout_consent.runtime.meta import refuse_param
from checkout_consent.runtime.solvers import episode_solver, init_scenario

MAX_TURNS = 1000  # a turn budget above this is a typo, not a run


@contextlib.contextmanager
def task_arguments(family: str) -> Iterator[None]:
    """Around a task's -T argument parsing: a bad value becomes Inspect's PrerequisiteError,
    which `inspect eval` prints as one line (no traceback), before any slow work."""
    try:
        yield
    except (ValueError, LookupError, TypeError, OverflowError, FileNotFoundError) as err:
        text = str(err.args[0] if isinstance(err, KeyError) and err.args else err)
        line = " ".join(text.split())[:300]
        raise prerequisite_error()(f"{family}: bad task argument: {line}") from None


def no_other_args(world: World, given: dict[str, object]) -> None:
    """A task function's `**given`: any key is one the world does not take, refused in one
    line (Inspect alone would run on with a warning)."""
    if given:
        raise prerequisite_error()(refuse_param(world, sorted(given)[0]))


def text_arg(name: str, value: object) -> str:
    """A -T value (which `inspect eval` parses as YAML) as the text `run` passes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date):  # a datetime too: its ISO text
        return value.isoformat()
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, list | tuple) and len(value) <= 10_000:
        return ",".join(text_arg(name, v) for v in value)
    raise ValueError(f"{name} must be text, got {type(value).__name__}")


def optional_text(name: str, value: object) -> str | None:
    """`text_arg`, with None (the parameter's default) kept as None."""
    return None if value is None else text_arg(name, value)


def turns_arg(name: str, value: object) -> int:
    """A turn budget from -T (an int or its text), 1..MAX_TURNS."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isascii() or not text.isdigit():
        raise ValueError(f"{name} must be a whole number of turns, got {str(value)[:40]!r}")
    if not 1 <= int(text) <= MAX_TURNS:
        raise ValueError(f"{name} must be between 1 and {MAX_TURNS}, got {text}")
    return int(text)


def sample(world: World, scenario: Scenario) -> Sample:
    """One sample: its id, the opening message, the versioned scenario reference."""
    versioned = scenario.model_copy(update={"version": world.version})
    return Sample(
        id=world.dataset.sample_id(scenario),
        input=world.episode.opening(scenario),
        metadata={"scenario": versioned.model_dump(mode="json")},
    )


def family_task(
    world: World,
    scenarios: Sequence[Scenario] | Callable[[], Sequence[Scenario]],
    *,
    scorer: Scorer,
    tools: Callable[[], list[ToolDef]],
    turns: object = None,
    sandbox: str | None = None,
) -> Task:
    """The family's Inspect task over `scenarios` (`scenarios`, `turns`: values or callables)."""
    api = active_model_api()  # a control of another family is refused as the task is built
    owner = getattr(api, "control_family", None)
    if isinstance(owner, str) and owner != world.family:
        name = getattr(api, "model_name", "")
        raise prerequisite_error()(
            f"control/{name} cannot play {world.name}: it is a {owner} control"
        )
    with task_arguments(world.name):
        chosen = list(scenarios() if callable(scenarios) else scenarios)
        budget = turns_arg(
            "the turn budget", (turns() if callable(turns) else turns) or world.episode.turns
        )
    return Task(
        dataset=MemoryDataset([sample(world, s) for s in chosen], name=world.name),
        setup=init_scenario(),
        solver=episode_solver(world, tools, budget),
        scorer=scorer,
        version=world.version,
        sandbox=sandbox,
    )
