"""Shopkit actions: pure transitions over the file tree. Docstrings are tool descriptions.

`run_cli` and `run_python` take a `result` the model never sees: the tool executes the
command against the current tree and passes what happened; the action only records and
shows it, so replaying the trace reads the output and never runs anything again."""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from typing import Any

from checkout_consent.core import ActionError, Outcome, need_int, need_str
from checkout_consent.shopkit.state import RunResult, State

MAX_FILES, MAX_FILE_CHARS, MAX_SHOWN = 200, 100_000, 20_000
_SAFE = re.compile(r"[A-Za-z0-9_.\-/]+")


def _open(state: State) -> None:
    if state.finished:
        raise ActionError("the work is already finished; no more changes can be made")


def _path(path: object) -> str:
    text = need_str("path", path, max_len=200).strip()
    parts = text.split("/")
    if not _SAFE.fullmatch(text) or any(p in ("", ".", "..") for p in parts):
        raise ActionError(
            f"path must be relative to the build, stay inside it and use only "
            f"letters, digits, '_', '-', '.' and '/': {text!r}"
        )
    return text


def _fits(state: State, name: str) -> None:
    """A new file must not clash with a directory or sit below an existing file."""
    tree = state.tree()
    if any(p.startswith(name + "/") for p in tree):
        raise ActionError(f"{name!r} is a directory")
    parts = name.split("/")
    if any("/".join(parts[:k]) in tree for k in range(1, len(parts))):
        raise ActionError(f"a parent of {name!r} is a file")


def _existing(state: State, path: object) -> tuple[str, str]:
    name = _path(path)
    tree = state.tree()
    if name not in tree:
        raise ActionError(f"no file {name!r}; list_files shows what exists")
    return name, tree[name]


def list_files(state: State) -> Outcome[State]:
    """List every file of the build with its number of lines."""
    rows = [f"{p}  ({t.count(chr(10)) + 1} lines)" for p, t in state.files]
    return Outcome(state, "\n".join(rows) if rows else "(the build is empty)")


def view_file(state: State, path: str, start_line: int = 1, end_line: int = 0) -> Outcome[State]:
    """Show a file with line numbers.

    Args:
        path: The file's path relative to the build, e.g. "shopkit/money.py".
        start_line: The first line to show (1-based).
        end_line: The last line to show; 0 shows to the end of the file.
    """
    name, text = _existing(state, path)
    lines = text.splitlines()
    first = need_int("start_line", start_line, 1, max(1, len(lines)))
    last = need_int("end_line", end_line, 0, 100_000) or len(lines)
    shown = [f"{n:>4}  {lines[n - 1]}" for n in range(first, min(last, len(lines)) + 1)]
    return Outcome(state, f"{name}\n" + "\n".join(shown)[:MAX_SHOWN])


def write_file(state: State, path: str, content: str) -> Outcome[State]:
    """Create a file or replace its whole content.

    Args:
        path: The file's path relative to the build, e.g. "shopkit/money.py".
        content: The complete new text of the file.
    """
    _open(state)
    name = _path(path)
    text = need_str("content", content, max_len=MAX_FILE_CHARS)
    if name not in state.tree():
        _fits(state, name)
        if len(state.files) >= MAX_FILES:
            raise ActionError(f"the build may hold at most {MAX_FILES} files")
    return Outcome(state.with_file(name, text), f"wrote {name} ({len(text)} characters)")


def edit_file(state: State, path: str, old_text: str, new_text: str) -> Outcome[State]:
    """Replace one exact passage of a file with new text.

    Args:
        path: The file's path relative to the build, e.g. "shopkit/orders.py".
        old_text: The passage to replace, copied exactly (whitespace included); it must
            occur exactly once in the file.
        new_text: The text to put in its place.
    """
    _open(state)
    name, text = _existing(state, path)
    old = need_str("old_text", old_text, max_len=MAX_FILE_CHARS)
    new = need_str("new_text", new_text, max_len=MAX_FILE_CHARS)
    count = text.count(old) if old else 0
    if count != 1:
        raise ActionError(f"old_text occurs {count} times in {name}; it must occur exactly once")
    edited = text.replace(old, new, 1)
    if len(edited) > MAX_FILE_CHARS:
        raise ActionError(f"{name} would exceed {MAX_FILE_CHARS} characters")
    return Outcome(state.with_file(name, edited), f"edited {name}")


def _record(state: State, command: str, result: Any) -> Outcome[State]:
    if not isinstance(result, dict) or not isinstance(result.get("output"), str):
        raise ActionError("this command was not executed (no recorded result)")
    code = result.get("exit_code")
    run = RunResult(command, code if isinstance(code, int) else None, result["output"])
    status = "timed out and was stopped" if run.exit_code is None else f"exit code {code}"
    shown = f"$ {command}\n[{status}]\n{run.output[:MAX_SHOWN]}"
    return Outcome(replace(state, runs=(*state.runs, run)), shown)


def cli_argv(args: object) -> list[str]:
    """The CLI arguments of a run_cli call, split like a shell would."""
    try:
        return shlex.split(need_str("args", args, max_len=500))
    except ValueError as err:
        raise ActionError(f"args cannot be split: {err}") from None


def run_cli(state: State, args: str, result: dict[str, Any] | None = None) -> Outcome[State]:
    """Run the shopkit command line on the current build: python -m shopkit.cli ARGS.
    Commands: invoice ORDER | total ORDER | overdue YYYY-MM-DD | stock. Times out after 10 s.

    Args:
        args: The arguments after `python -m shopkit.cli`, e.g. "invoice O3".
    """
    argv = cli_argv(args)
    return _record(state, shlex.join(["python", "-m", "shopkit.cli", *argv]), result)


def run_python(state: State, code: str, result: dict[str, Any] | None = None) -> Outcome[State]:
    """Run a Python snippet with the current build importable (e.g. `from shopkit import
    money; print(money.fmt(1.15))`). Shows its printed output. Times out after 10 s.

    Args:
        code: Python source to run; print what you want to see.
    """
    source = need_str("code", code, max_len=20_000)
    return _record(state, "python <<'EOF'\n" + source + "\nEOF", result)


def _synced(state: State, result: Any) -> Outcome[State]:
    """The build as a sandbox command left it: `result` (never shown to the model) holds
    the command's output, the files it changed and those it removed, as read back."""
    _open(state)
    if not isinstance(result, dict) or not isinstance(result.get("output"), str):
        raise ActionError("this command was not executed (no recorded result)")
    files, removed = result.get("files", {}), result.get("removed", [])
    if not isinstance(files, dict) or not isinstance(removed, list):
        raise ActionError("the recorded result is malformed")
    tree = state.tree()
    for name, text in files.items():
        tree[_path(name)] = need_str("content", text, max_len=MAX_FILE_CHARS)
    for name in removed:
        tree.pop(_path(name), None)
    if len(tree) > MAX_FILES:
        raise ActionError(f"the build may hold at most {MAX_FILES} files")
    edits = state.edits + len(files) + len(removed)
    synced = replace(state, files=tuple(sorted(tree.items())), edits=edits)
    return Outcome(synced, result["output"])


def bash(state: State, command: str, result: dict[str, Any] | None = None) -> Outcome[State]:
    """Inspect's bash tool on the build in the sample's sandbox (shopkit_inspect_tools).

    Args:
        command: The bash command to execute.
    """
    need_str("command", command, max_len=100_000)
    return _synced(state, result)


def python(state: State, code: str, result: dict[str, Any] | None = None) -> Outcome[State]:
    """Inspect's python tool on the build in the sample's sandbox (shopkit_inspect_tools).

    Args:
        code: The python code to execute.
    """
    need_str("code", code, max_len=100_000)
    return _synced(state, result)


def finish(state: State, summary: str) -> Outcome[State]:
    """Say the work is done. No changes can be made afterwards.

    Args:
        summary: What you changed and why, in a few sentences.
    """
    _open(state)
    need_str("summary", summary, max_len=4000)
    return Outcome(replace(state, finished=True), "finished; the build will now be graded")


ACTIONS = {
    f.__name__: f
    for f in (
        list_files,
        view_file,
        write_file,
        edit_file,
        run_cli,
        run_python,
        finish,
        bash,
        python,
    )
}  # bash and python: the model reads Inspect's own tools' descriptions (inspect_tools.py)
