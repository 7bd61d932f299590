"""Scenario -> initial State: the seed tree and the task's brief (tasks/shopkit/)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from checkout_consent.core.family import Scenario
from checkout_consent.core.spec import load_yaml
from checkout_consent.core.version import tasks_dir
from checkout_consent.shopkit.state import State

TREE_SUFFIXES = (".py", ".json", ".md", ".txt")


@functools.cache
def load_tasks() -> dict[str, Any]:
    """tasks/shopkit/tasks.yaml: the system prompt and the five briefs."""
    return load_yaml("shopkit", "tasks")


def task_ids() -> list[str]:
    return list(load_tasks()["tasks"])


def brief(task: str) -> str:
    tasks = load_tasks()["tasks"]
    if task not in tasks:
        raise KeyError(f"unknown shopkit task {task!r}; tasks: {', '.join(tasks)}")
    return str(tasks[task]["brief"]).strip()


def read_tree(root: Path) -> tuple[tuple[str, str], ...]:
    """Every text file under `root` (caches and bytecode left out), sorted by path."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in TREE_SUFFIXES and "__pycache__" not in path.parts:
            found.append((path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")))
    return tuple(found)


@functools.cache
def build_tree(name: str) -> tuple[tuple[str, str], ...]:
    """The `seed` or `reference` build as a sorted (path, text) tuple."""
    return read_tree(tasks_dir("shopkit") / name)


def scenario(task: str, brief_text: str | None = None) -> Scenario:
    """The scenario of one task: its brief (or the one given) and the seed tree ride in
    the sample, so a log replays as it was played even after tasks/ has changed."""
    params: dict[str, Any] = {"task": task, "brief": brief_text or brief(task),
                              "seed_tree": dict(build_tree("seed"))}
    return Scenario(family="shopkit", scenario_id=task, seed=0, params=params)


def generate(sc: Scenario) -> State:
    task = str(sc.params.get("task", sc.scenario_id))
    text = str(sc.params.get("brief") or brief(task))
    tree = sc.params.get("seed_tree")
    files = tuple(sorted(tree.items())) if isinstance(tree, dict) else build_tree("seed")
    return State(task=task, brief=text, files=files)
