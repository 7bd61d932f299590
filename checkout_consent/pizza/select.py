"""Which tasks a run plays: task arguments (often strings from a command line) to tasks."""

from __future__ import annotations

from checkout_consent.core.spec import parse_seeds
from checkout_consent.pizza.data import split_tasks
from checkout_consent.pizza.state import Task


def as_flag(value: bool | str | int) -> bool:
    """A task argument as a boolean: true/false, yes/no, on/off, 1/0."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {value!r}")


def select_tasks(split: str | int = "public", seeds: str | int | None = None,
                 only: str | None = None) -> list[Task]:
    """The tasks of a split (or of several seeds' splits), filtered by id or template."""
    pool = ([t for s in parse_seeds(seeds) for t in split_tasks(s)] if seeds is not None
            else split_tasks(split))
    if not only:
        return pool
    wanted = {w.strip() for w in str(only).split(",") if w.strip()}
    chosen = [t for t in pool if t.task_id in wanted or t.template in wanted]
    missing = wanted - {t.task_id for t in chosen} - {t.template for t in chosen}
    if missing:
        raise ValueError(f"no pizza task or template {sorted(missing)}")
    return chosen
