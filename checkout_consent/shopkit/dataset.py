"""The shopkit data (tasks/shopkit/), the family's only file reader: tasks.yaml and the seed
and reference builds; a Scenario -> its task, brief and seed tree."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.core import Scenario
from checkout_consent.runtime.files import load_yaml, tasks_dir

TREE_SUFFIXES = (".py", ".json", ".md", ".txt")
Tree = tuple[tuple[str, str], ...]


class Resolved(NamedTuple):
    """What a scenario reference names: the task, the brief the agent reads, the seed."""

    task: str
    brief: str
    files: Tree


@functools.cache
def load_tasks() -> dict[str, Any]:
    """tasks/shopkit/tasks.yaml: the system prompt and the five briefs."""
    return load_yaml("shopkit", "tasks")


def task_ids() -> list[str]:
    return list(load_tasks()["tasks"])


def task_info(task: str) -> dict[str, Any]:
    tasks = load_tasks()["tasks"]
    if task not in tasks:
        raise KeyError(f"unknown shopkit task {task!r}; tasks: {', '.join(tasks)}")
    return dict(tasks[task])


def brief(task: str) -> str:
    return str(task_info(task)["brief"]).strip()


def system_prompt() -> str:
    return str(load_tasks()["system"])


def build_dir(name: str) -> Path:
    """The `seed` or `reference` build on disk."""
    return tasks_dir("shopkit") / name


def read_tree(root: Path) -> Tree:
    """Every text file under `root` (caches and bytecode left out), sorted by path."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in TREE_SUFFIXES and "__pycache__" not in path.parts:
            found.append((path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")))
    return tuple(found)


@functools.cache
def build_tree(name: str) -> Tree:
    """The `seed` or `reference` build as a sorted (path, text) tuple."""
    return read_tree(build_dir(name))


def scenario(task: str, brief_text: str | None = None) -> Scenario:
    """The reference a sample carries: the task id, and a custom brief only when one is
    given (`-T brief=...`); everything else is rebuilt from tasks/ by `resolve`."""
    task_info(task)
    params: dict[str, Any] = {"brief": brief_text} if brief_text else {}
    return Scenario(world="shopkit", scenario_id=task, seed=0, params=params)


def resolve(sc: Scenario) -> Resolved:
    """The task, brief and seed tree a scenario names."""
    unknown = set(sc.params) - {"brief"}
    if unknown:
        raise ValueError(
            f"shopkit scenario params are public knobs only ('brief'), got {sorted(unknown)}"
        )
    text = sc.params.get("brief")
    return Resolved(
        sc.scenario_id, str(text) if text else brief(sc.scenario_id), build_tree("seed")
    )


def parse_tasks(task: str) -> list[str]:
    """The -T task argument: one id, a comma list, or `all`."""
    ids = task_ids() if task == "all" else [t.strip() for t in str(task).split(",")]
    unknown = [t for t in ids if t not in task_ids()]
    if unknown:
        raise ValueError(f"unknown shopkit task(s) {unknown}; tasks: {', '.join(task_ids())}")
    return ids
