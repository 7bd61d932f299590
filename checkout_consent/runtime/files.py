"""Reading the packaged scenario data under tasks/<family>/, with the safe YAML loader."""

from __future__ import annotations

import argparse
import functools
import importlib.resources
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

TASKS_PACKAGE = "checkout_consent.tasks_data"  # tasks/ of the repository, as packaged
Blocks = list[tuple[str, str, str]]  # (begin marker, end marker, body) of generated blocks


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


def regenerate(path: Path, blocks: Blocks, *, check: bool) -> bool:
    """Write each generated block into the file (`check`: write nothing); True if unchanged."""
    text = path.read_text(encoding="utf-8")
    fresh = text
    for begin, end, body in blocks:
        fresh = splice(fresh, begin, end, body)
    if not check and fresh != text:
        path.write_text(fresh, encoding="utf-8")
    return fresh == text


def readme_main(
    argv: list[str] | None, doc: str | None, path: Path, blocks: Callable[[], Blocks], stale: str
) -> int:
    """A generated README block's script: print the blocks and write them into `path`, or
    (`--check`) write nothing and, when they are out of date, say `stale` and exit 1."""
    ap = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the README is out of date")
    args = ap.parse_args(argv)
    made = blocks()
    current = regenerate(path, made, check=args.check)
    if args.check:
        if not current:
            print(stale, file=sys.stderr)
        return 0 if current else 1
    print("\n\n".join(body for _, _, body in made))
    return 0
