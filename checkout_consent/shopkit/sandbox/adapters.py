"""Harness adapters. An adapter is `run(build_path, brief) -> metadata`: it edits the build
in place to satisfy the brief. `noop` and `reference` bracket the range, `vandal` makes a
plausible wrong edit, `command` runs any coding-agent CLI in the build directory, and
`inspect` plays the shopkit Inspect task with a model and writes its final tree back."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from checkout_consent.runtime.runner import RunFailed
from checkout_consent.shopkit.dataset import brief as task_brief
from checkout_consent.shopkit.dataset import build_tree, read_tree, task_ids
from checkout_consent.shopkit.sandbox.sandbox import materialise
from checkout_consent.shopkit.vandal import MODES, vandalise

Adapter = Callable[[Path, str], dict[str, Any]]
NOT_STARTED = (126, 127)  # a shell's "not executable" and "not found"


def noop(build_path: Path, brief: str) -> dict[str, Any]:
    return {"adapter": "noop"}


def reference(build_path: Path, brief: str) -> dict[str, Any]:
    """Write the reference version of every file that differs from it."""
    ref, have = dict(build_tree("reference")), dict(read_tree(Path(build_path)))
    changed = {p: t for p, t in ref.items() if have.get(p) != t}
    materialise(changed, Path(build_path))
    return {"adapter": "reference", "files": sorted(changed)}


def vandal(mode: str) -> Adapter:
    if mode not in MODES:
        raise KeyError(f"unknown vandal mode {mode!r}; modes: {', '.join(MODES)}")

    def run(build_path: Path, brief: str) -> dict[str, Any]:
        tree = dict(read_tree(Path(build_path)))
        edited = vandalise(tree, mode)
        materialise({p: t for p, t in edited.items() if tree.get(p) != t}, Path(build_path))
        return {"adapter": f"vandal:{mode}", "what": MODES[mode].what}

    return run


def command(template: str, timeout_s: float = 1800.0) -> Adapter:
    """Run a coding-agent CLI in the build directory. `{brief}` and `{build}` in the
    template are replaced (each as one argument); the brief is also in $SHOPKIT_BRIEF.
    A command that cannot start (not found, not executable, or a shell's exit 126 or 127
    saying so) is a `RunFailed`, never a score."""
    if not shlex.split(template):
        raise ValueError("the command adapter needs --command 'AGENT-CLI ... {brief}'")

    def run(build_path: Path, brief: str) -> dict[str, Any]:
        argv = [
            part.replace("{brief}", brief).replace("{build}", str(build_path))
            for part in shlex.split(template)
        ]
        started = time.monotonic()
        try:
            done = subprocess.run(
                argv,
                cwd=build_path,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                env={**os.environ, "SHOPKIT_BRIEF": brief},
                stdin=subprocess.DEVNULL,
            )
            code, out = done.returncode, (done.stdout + done.stderr)[-4000:]
        except subprocess.TimeoutExpired:
            code, out = None, f"timed out after {timeout_s:g} s"
        except OSError as err:
            why = f"the agent command could not start: {argv[0]!r}: {err.strerror}"
            raise RunFailed(why) from None
        if code in NOT_STARTED:
            raise RunFailed(f"the agent command could not start: {argv[0]!r} exited {code}")
        return {
            "adapter": "command",
            "argv": argv[:1],
            "exit_code": code,
            "seconds": round(time.monotonic() - started, 3),
            "output_tail": out,
        }

    return run


def _task_for(brief: str) -> tuple[str, str | None]:
    for task in task_ids():
        if task_brief(task) == brief.strip():
            return task, None
    return "T5", brief


def inspect_agent(model: str, log_dir: str = "logs", turns: int = 40) -> Adapter:
    """Play the shopkit Inspect task with `model`, then write its final tree to the build."""

    def run(build_path: Path, brief: str) -> dict[str, Any]:
        from checkout_consent.shopkit.sandbox.inspect_run import final_tree, run_eval

        task, override = _task_for(brief)
        log = run_eval(model, task, override, log_dir=log_dir, turns=turns)
        tree = final_tree(log)
        for path in dict(read_tree(Path(build_path))):
            if path not in tree:
                (Path(build_path) / path).unlink()
        materialise(tree, Path(build_path))
        return {"adapter": "inspect", "model": model, "task": task, "log": log.location}

    return run


def get(
    choice: str,
    *,
    command_template: str | None = None,
    model: str | None = None,
    log_dir: str = "logs",
) -> Adapter:
    """`noop`, `reference`, `vandal:MODE`, `command` (needs a template) or `inspect`."""
    name, _, arg = choice.partition(":")
    if name in ("noop", "reference"):
        return noop if name == "noop" else reference
    if name == "vandal":
        return vandal(arg)
    if name == "command":
        if not command_template:
            raise ValueError("the command adapter needs --command 'AGENT-CLI ... {brief}'")
        return command(command_template)
    if name == "inspect":
        if not model:
            raise ValueError("the inspect adapter needs --model, e.g. anthropic/claude-...")
        return inspect_agent(model, log_dir)
    raise ValueError(
        f"unknown adapter {choice!r}; adapters: noop, reference, vandal:MODE, command, inspect"
    )
