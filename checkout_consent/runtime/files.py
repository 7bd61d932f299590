"""Reading the packaged scenario data under tasks/<family>/, with the safe YAML loader."""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path
from typing import Any

import yaml

TASKS_PACKAGE = "checkout_consent.tasks_data"  # tasks/ of the repository, as packaged


@functools.cache
def tasks_root() -> Path:
    """The packaged scenario data: the repository's tasks/ (`checkout_consent.tasks_data`)."""
    try:
        root = importlib.resources.files(TASKS_PACKAGE)
    except ModuleNotFoundError:
        raise FileNotFoundError(
            f"the scenario data ({TASKS_PACKAGE}) is not installed; "
            "reinstall the suite (pip install checkout_consent)"
        ) from None
    path = Path(str(root))
    if not path.is_dir():  # a zip import is not supported: the tasks are read as files
        raise FileNotFoundError(f"the scenario data ({TASKS_PACKAGE}) is not a directory")
    return path


def tasks_dir(family: str) -> Path:
    """The scenario data of one family (tasks/<family>/)."""
    path = tasks_root() / family
    if not path.is_dir():
        raise FileNotFoundError(f"no scenario data for {family!r} under {tasks_root()}")
    return path


def load_yaml(family: str, name: str) -> dict[str, Any]:
    """tasks/<family>/<name>.yaml as a mapping, loaded with the safe loader."""
    path = tasks_dir(family) / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in tasks_dir(family).glob("*.yaml"))
        raise FileNotFoundError(f"no {family} scenario {name!r}; known: {', '.join(known)}")
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a mapping")
    return data


def splice(text: str, begin: str, end: str, body: str) -> str:
    """Replace what stands between the `begin` and `end` markers of a generated block."""
    head, found_begin, rest = text.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not (found_begin and found_end):
        raise ValueError(f"no {begin} ... {end} block to regenerate")
    return f"{head}{begin}\n{body}\n{end}{tail}"


def regenerate(path: Path, blocks: list[tuple[str, str, str]], *, check: bool) -> bool:
    """Write each generated block into the file (`check`: write nothing); True if unchanged."""
    text = path.read_text(encoding="utf-8")
    fresh = text
    for begin, end, body in blocks:
        fresh = splice(fresh, begin, end, body)
    if not check and fresh != text:
        path.write_text(fresh, encoding="utf-8")
    return fresh == text
