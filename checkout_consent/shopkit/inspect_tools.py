"""`--solver checkout_consent/shopkit_inspect_tools`: the shopkit episode with Inspect's own
`bash()` and `python()` tools on the build in the sample's sandbox (the task, its samples
and its grading are the same; only the agent's harness differs).

Before a call the sandbox's working directory is brought up to the traced build; after it
the build is read back (`LISTER`: regular UTF-8 files under names the world allows) and the
call is traced as the pure action of the same name with what changed as its hidden
`result`, so replay needs no sandbox. What cannot be part of the build (a symlink, a binary
file, a refused name) stays in the sandbox, is named in the output, and is never graded."""

from __future__ import annotations

import functools
import json
from typing import Any

from inspect_ai.solver import Solver, solver
from inspect_ai.tool import Tool, ToolDef, ToolError, bash, python
from inspect_ai.util import SandboxEnvironment, sandbox, store

from checkout_consent.runtime.solvers import episode_solver
from checkout_consent.runtime.store import current_state, perform
from checkout_consent.runtime.tasks import task_arguments, turns_arg
from checkout_consent.runtime.tools import action_tools
from checkout_consent.shopkit import WORLD
from checkout_consent.shopkit.state import State

TIMEOUT_S = 60
_MIRROR = "_shopkit_sandbox_build"  # on the sample's Store object: what the sandbox holds
LISTER = r"""
import json, os, re, stat
SAFE = re.compile(r"[A-Za-z0-9_.\-/]{1,200}")
files, skipped, total = {}, [], 0
for root, dirs, names in os.walk(".", followlinks=False):
    links = [d for d in dirs if os.path.islink(os.path.join(root, d))]
    skipped += [os.path.relpath(os.path.join(root, d)) for d in links]
    dirs[:] = sorted(d for d in dirs if d != "__pycache__" and d not in links)
    for name in sorted(names):
        rel = os.path.relpath(os.path.join(root, name))
        try:
            st = os.lstat(rel)
            ok = stat.S_ISREG(st.st_mode) and SAFE.fullmatch(rel) and ".." not in rel.split("/")
            if not ok or len(files) >= 200 or total + st.st_size > 4 << 20:
                raise ValueError(rel)
            with open(rel, "rb") as handle:
                text = handle.read(400_001).decode("utf-8")
            if len(text) > 100_000:
                raise ValueError(rel)
        except (OSError, ValueError):
            skipped.append(rel)
            continue
        total += st.st_size
        files[rel] = text
print(json.dumps({"files": files, "skipped": skipped}))
"""


async def read_back(env: SandboxEnvironment) -> tuple[dict[str, str] | None, list[str]]:
    """The build in the sandbox's working directory (None if it cannot be read) and the
    names left out of it."""
    run = await env.exec(["python3", "-I", "-S", "-B", "-c", LISTER], timeout=30)
    try:
        found = json.loads(run.stdout) if run.success else {}
        return dict(found["files"]), [str(s) for s in found["skipped"]]
    except (ValueError, TypeError, KeyError):
        return None, []


async def _sync(env: SandboxEnvironment, state: State, mirror: dict[str, str]) -> None:
    """Write every traced file the sandbox does not hold as traced."""
    for path, text in state.files:
        if mirror.get(path) != text:
            await env.write_file(path, text)
            mirror[path] = text


def _mirror() -> dict[str, str]:
    held = store()
    mirror: dict[str, str] | None = getattr(held, _MIRROR, None)
    if mirror is None:
        mirror = {}
        setattr(held, _MIRROR, mirror)
    return mirror


def _result(state: State, output: str, files: dict[str, str] | None, skipped: list[str]) -> Any:
    if files is None:
        return {"output": output + "\n[the build could not be read back from the sandbox]"}
    if skipped:
        output += f"\n[not part of the build, never graded: {', '.join(skipped[:20])}]"
    tree = state.tree()
    changed = {p: t for p, t in files.items() if tree.get(p) != t}
    return {"output": output, "files": changed, "removed": sorted(set(tree) - set(files))}


async def _through(name: str, inner: Tool, args: dict[str, Any]) -> str:
    """Run Inspect's tool on the traced build and trace the call with what it changed."""
    state: State = current_state(WORLD)
    if not state.finished:
        env, mirror = sandbox(), _mirror()
        await _sync(env, state, mirror)
        try:
            output = str(await inner(**args))
        except TimeoutError:
            output = f"the command did not finish within {TIMEOUT_S} s and was stopped"
        files, skipped = await read_back(env)
        if files is not None:
            mirror.clear()
            mirror.update(files)
        args = {**args, "result": _result(state, output, files, skipped)}
    step = perform(WORLD, name, args)  # a finished build: refused, and traced as such
    if not step.ok:
        raise ToolError(step.observation)
    return step.observation


def _wrapped(name: str, inner: Tool, execute: Any) -> ToolDef:
    shown = ToolDef(inner)
    return ToolDef(
        execute,
        name=name,
        description=shown.description,
        parameters=shown.parameters,
        parallel=False,  # one build: calls of one turn run in order
    )


@functools.cache  # one function per process: Inspect caches every tool function it sees
def _bash() -> ToolDef:
    inner = bash(timeout=TIMEOUT_S)

    async def execute(command: str) -> str:
        return await _through("bash", inner, {"command": command})

    return _wrapped("bash", inner, execute)


@functools.cache
def _python() -> ToolDef:
    inner = python(timeout=TIMEOUT_S)

    async def execute(code: str) -> str:
        return await _through("python", inner, {"code": code})

    return _wrapped("python", inner, execute)


def inspect_tools() -> list[ToolDef]:
    """The tools the model sees with this solver, in this order."""
    return [_bash(), _python(), *action_tools(WORLD, ("finish",))]


@solver
def shopkit_inspect_tools(turns: int = 40) -> Solver:
    """The shopkit episode (pacing, nudge, finish) with Inspect's bash and python tools."""
    with task_arguments(WORLD.name):
        budget = turns_arg("turns", turns)
    return episode_solver(WORLD, inspect_tools, budget)
