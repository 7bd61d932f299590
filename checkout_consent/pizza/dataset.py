"""The pizza task files (the family's only file reader and writer) and a Scenario (task
id, split seed) -> its task; a seed other than the public one is a hidden split, written
to tasks/pizza/hidden/tasks-<seed>.jsonl on first use."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from pathlib import Path

import yaml

from checkout_consent.core import Scenario, parse_flag, parse_seeds
from checkout_consent.pizza.authoring.tasks import PUBLIC_SEED, generate
from checkout_consent.pizza.authoring.templates import Templates
from checkout_consent.pizza.state import Task
from checkout_consent.runtime.files import tasks_dir

_HIDDEN_ID = re.compile(r"-s(\d+)$")


def data_dir() -> Path:
    return tasks_dir("pizza")


def templates() -> Templates:
    with (data_dir() / "templates.yaml").open(encoding="utf-8") as handle:
        return Templates.model_validate(yaml.safe_load(handle))


@functools.cache
def policy_text() -> str:
    """tasks/pizza/POLICY.md, the policy the system prompt carries."""
    return (data_dir() / "POLICY.md").read_text(encoding="utf-8")


def public_path() -> Path:
    return data_dir() / "tasks.jsonl"


def hidden_path(seed: int) -> Path:
    return data_dir() / "hidden" / f"tasks-{seed}.jsonl"


def dumps(tasks: Iterable[Task]) -> str:
    """The byte-stable text of a split: one compact JSON object per line, keys in model order."""
    return "".join(json.dumps(t.model_dump(mode="json"), ensure_ascii=False) + "\n" for t in tasks)


def write_split(seed: int, split: str) -> Path:
    """Generate the tasks of `seed` and write them: the public file or a hidden one."""
    if split == "public" and seed != PUBLIC_SEED:
        raise ValueError(f"the public split is seed {PUBLIC_SEED}; use --split hidden")
    path = public_path() if split == "public" else hidden_path(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(generate(templates(), seed)), encoding="utf-8")
    return path


def read_tasks(path: Path) -> list[Task]:
    with path.open(encoding="utf-8") as handle:
        return [Task.model_validate_json(line) for line in handle if line.strip()]


@functools.cache
def public_tasks() -> tuple[Task, ...]:
    return tuple(read_tasks(public_path()))


def split_tasks(split: str | int | None = None) -> list[Task]:
    """ "public" (default) or a hidden seed's tasks (generating the file if it is absent)."""
    if split in (None, "public", str(PUBLIC_SEED), PUBLIC_SEED):
        return list(public_tasks())
    path = hidden_path(seed := int(str(split).removeprefix("hidden-")))
    if not path.exists():
        write_split(seed, "hidden")
    return read_tasks(path)


@functools.cache
def _by_id(seed: int) -> dict[str, Task]:
    return {t.task_id: t for t in split_tasks(seed)}


def resolve(scenario: Scenario) -> Task:
    """The task a scenario names: task `scenario_id` of the split of seed `scenario.seed`."""
    task = _by_id(scenario.seed).get(scenario.scenario_id)
    if task is None:
        raise KeyError(
            f"no pizza task {scenario.scenario_id!r} in the split of seed {scenario.seed}"
        )
    return task


def scenario_of(task: Task, *, replies: bool = True) -> Scenario:
    """The reference a sample carries: task id, split seed (Task.seed), the `replies` knob."""
    return Scenario(
        world="pizza", scenario_id=task.task_id, seed=task.seed, params={"replies": replies}
    )


def replies_of(scenario: Scenario) -> bool:
    return bool(scenario.params.get("replies", True))


def find_task(task_id: str) -> Task:
    """A task by id: hidden ids end in "-s<seed>", the others are public."""
    found = _HIDDEN_ID.search(task_id)
    return resolve(
        Scenario(
            world="pizza", scenario_id=task_id, seed=int(found.group(1)) if found else PUBLIC_SEED
        )
    )


def select_tasks(
    split: str | int = "public", splits: str | int | None = None, only: str | None = None
) -> list[Task]:
    """The tasks of a split (or of several splits, each named by its seed), filtered by id
    or template."""
    pool = (
        [t for s in parse_seeds(splits) for t in split_tasks(s)]
        if splits is not None
        else split_tasks(split)
    )
    if not only:
        return pool
    wanted = {w.strip() for w in str(only).split(",") if w.strip()}
    chosen = [t for t in pool if t.task_id in wanted or t.template in wanted]
    missing = wanted - {t.task_id for t in chosen} - {t.template for t in chosen}
    if missing:
        raise ValueError(f"no pizza task or template {sorted(missing)}")
    return chosen


def scenarios(
    split: str | int = "public",
    splits: str | int | None = None,
    only: str | None = None,
    replies: bool | str = True,
) -> list[Scenario]:
    """The task arguments of a run (often strings from a command line) -> its scenarios."""
    talk = parse_flag(replies, "replies")
    return [scenario_of(t, replies=talk) for t in select_tasks(split, splits, only)]


def scenario(task_id: str) -> Scenario:
    """`score --task ID`: the task's scenario, with the customer's replies on."""
    return scenario_of(find_task(task_id))
