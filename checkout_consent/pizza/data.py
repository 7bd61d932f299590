"""The pizza task files: where they live, how they are written and read (the family's I/O)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from pathlib import Path

from checkout_consent.core.version import tasks_dir
from checkout_consent.pizza.generate import PUBLIC_SEED, generate
from checkout_consent.pizza.spec import Spec, load_spec
from checkout_consent.pizza.state import Task


def data_dir() -> Path:
    return tasks_dir("pizza")


def spec() -> Spec:
    return load_spec(data_dir() / "templates.yaml")


def public_path() -> Path:
    return data_dir() / "tasks.jsonl"


def hidden_path(seed: int) -> Path:
    return data_dir() / "hidden" / f"tasks-{seed}.jsonl"


def dumps(tasks: Iterable[Task]) -> str:
    """The byte-stable text of a split: one compact JSON object per line, keys in model order."""
    return "".join(json.dumps(t.model_dump(mode="json"), ensure_ascii=False) + "\n"
                   for t in tasks)


def write_split(seed: int, split: str) -> Path:
    """Generate the tasks of `seed` and write them: the public file or a hidden one."""
    if split == "public" and seed != PUBLIC_SEED:
        raise ValueError(f"the public split is seed {PUBLIC_SEED}; use --split hidden")
    path = public_path() if split == "public" else hidden_path(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(generate(spec(), seed)), encoding="utf-8")
    return path


def read_tasks(path: Path) -> list[Task]:
    with path.open(encoding="utf-8") as handle:
        return [Task.model_validate_json(line) for line in handle if line.strip()]


@functools.cache
def public_tasks() -> tuple[Task, ...]:
    return tuple(read_tasks(public_path()))


def split_tasks(split: str | int | None = None) -> list[Task]:
    """"public" (default) or a hidden seed's tasks (generating the file if it is absent)."""
    if split in (None, "public", str(PUBLIC_SEED), PUBLIC_SEED):
        return list(public_tasks())
    seed = int(str(split).removeprefix("hidden-"))
    path = hidden_path(seed)
    if not path.exists():
        write_split(seed, "hidden")
    return read_tasks(path)


def find_task(task_id: str) -> Task:
    """A task by id: the public split, else any hidden split on disk."""
    for task in public_tasks():
        if task.task_id == task_id:
            return task
    hidden = data_dir() / "hidden"
    for path in sorted(hidden.glob("tasks-*.jsonl")) if hidden.is_dir() else []:
        for task in read_tasks(path):
            if task.task_id == task_id:
                return task
    raise KeyError(f"no pizza task {task_id!r}")
