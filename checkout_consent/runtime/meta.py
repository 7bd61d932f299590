"""What a world is beyond its pure contract: its `eval.yaml`, Inspect task and `-T` parameters."""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from pydantic import ValidationError

from checkout_consent.core.contract import Meta, World


@functools.cache
def meta(package: str) -> Meta:
    """The metadata of the world in `package` (ValueError naming the bad field)."""
    text = resources.files(package).joinpath("eval.yaml").read_text("utf-8")
    return parse_meta(text, f"{package.replace('.', '/')}/eval.yaml")


def parse_meta(text: str, where: str) -> Meta:
    """`eval.yaml`'s text as a `Meta`; a wrong key or type is one line naming the field."""
    try:
        return Meta.model_validate(yaml.safe_load(text))
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "the file"
        raise ValueError(f"{where}: {field}: {first['msg']}") from None


def task_module(world: World) -> ModuleType:
    """The world's task module (importing it registers the task and its scorer)."""
    return importlib.import_module(f"checkout_consent.{world.name}.task")


def task_factory(world: World) -> Callable[..., Any]:
    """The registered Inspect task of the world: `<name>` in its task module."""
    factory: Callable[..., Any] = getattr(task_module(world), world.name)
    return factory


def documented_params(doc: str | None) -> dict[str, str]:
    """The `-T` parameters a `@task` docstring's `Args:` section documents: name -> meaning."""
    params: dict[str, str] = {}
    inside, key, indent = False, None, None
    for line in (doc or "").splitlines():
        text = line.strip()
        if text == "Args:":
            inside = True
        elif inside and not text:
            break
        elif inside:
            head = re.fullmatch(r"([a-z_][a-z0-9_]*)(?: \([^)]*\))?: (.*)", text)
            if head and indent is None:
                indent = len(line) - len(line.lstrip())
            if head and len(line) - len(line.lstrip()) == indent:
                key = head.group(1)
                params[key] = head.group(2)
            elif key is not None:
                params[key] += " " + text
    return params


def task_params(world: World) -> dict[str, str]:
    """Every `-T` parameter of the world, as its task's docstring documents it."""
    return documented_params(task_doc(world.name))


@functools.cache
def task_doc(name: str) -> str | None:
    """The `@task` function's docstring, read from its module's source, so `list`, `show`
    and a refused `-T` key never import Inspect for it."""
    try:
        found = importlib.util.find_spec(f"checkout_consent.{name}.task")
    except ModuleNotFoundError:  # no world package of that name
        found = None
    if found is None or found.origin is None:
        raise LookupError(f"{name} has no task module (checkout_consent.{name}.task)")
    tree = ast.parse(Path(found.origin).read_text(encoding="utf-8"))
    defined = (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    node = next(defined, None)
    return None if node is None else ast.get_docstring(node, clean=False)


def refuse_param(world: World, key: str) -> str:
    """The one line refusing a `-T` key the world does not take."""
    return (
        f"{world.name} has no task parameter {key[:60]!r}; parameters: "
        f"{', '.join(sorted(task_params(world)))}"
    )
