"""Test helpers: a control's moves, a `human/web` run in a subprocess, and headless
Chromium (Playwright) filling the page's forms with those moves, as a person would."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkout_consent.runtime.meta import task_factory
from tests.conftest import chromium

# launch flags known to work on this kind of machine; every host but loopback unreachable
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
# one sample of each world: (inspect task, -T arguments, the control whose moves are played)
WORLD_RUNS: dict[str, tuple[str, dict[str, str], str]] = {
    "pizza": ("pizza", {"tasks": "wrong-topping-1"}, "pizza-reference"),
    "grocery": ("grocery", {"tasks": "normal-week"}, "grocery-reference"),
    "shopkit": ("shopkit", {"task": "T1"}, "shopkit-reference"),
    "storefront": ("storefront", {"seeds": "0"}, "storefront-cautious"),
    "storefront_v1": ("storefront_v1", {"seeds": "0"}, "storefront-oracle"),
}

Move = tuple[str, Any]  # ("calls", [(tool, args), ...]) or ("reply", text)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _eval_argv(task: str, model: str, args: dict[str, str], log_dir: Path) -> list[str]:
    argv = [sys.executable, "-m", "inspect_ai", "eval", f"checkout_consent/{task}"]
    argv += ["--model", model, "--log-dir", str(log_dir), "--display", "none"]
    for key, value in args.items():
        argv += ["-T", f"{key}={value}"]
    return argv


def samples_of(log_dir: Path) -> list[Any]:
    from inspect_ai.log import read_eval_log

    (path,) = sorted(log_dir.glob("*.eval"))
    log = read_eval_log(str(path))
    assert log.status == "success", log.error
    return sorted(log.samples or [], key=lambda s: (str(s.id), s.epoch))


def records_of(log_dir: Path) -> list[str]:
    """Each sample's score record as canonical JSON text."""
    out = []
    for sample in samples_of(log_dir):
        meta = next(iter(sample.scores.values())).metadata
        out.append(json.dumps(meta["record"], sort_keys=True))
    return out


def control_run(label: str, log_dir: Path) -> tuple[list[Move], list[str]]:
    """The control's own run of the world's sample: its moves, in order, and its records."""
    from inspect_ai import eval as inspect_eval

    from checkout_consent.families import WORLDS

    task, args, control = WORLD_RUNS[label]
    (world,) = [w for w in WORLDS if w.name == task]  # the Task itself: no registry lookup
    inspect_eval(
        task_factory(world)(**args),
        model=f"control/{control}",
        log_dir=str(log_dir),
        display="none",
    )
    moves: list[Move] = []
    for sample in samples_of(log_dir):
        for message in sample.messages:
            if message.role != "assistant":
                continue
            calls = message.tool_calls or []
            assert not (calls and message.text), "a control's turn is calls or a reply"
            if calls:
                moves.append(("calls", [(c.function, dict(c.arguments)) for c in calls]))
            else:
                moves.append(("reply", message.text))
    return moves, records_of(log_dir)


@dataclass
class HumanRun:
    process: subprocess.Popen[bytes]
    url: str
    log_dir: Path

    def status(self) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(self.url + "status.json", timeout=5) as r:  # noqa: S310
                return dict(json.loads(r.read()))
        except OSError:
            return None


def _cli_argv(verb: str, label: str, args: dict[str, str], log_dir: Path) -> list[str]:
    """`checkout-consent run FAMILY` or `checkout-consent suite --world W` for `human/web`."""
    from checkout_consent.families import WORLDS

    (world,) = [w for w in WORLDS if w.name == WORLD_RUNS[label][0]]
    argv = [sys.executable, "-m", "checkout_consent.cli", "--log-dir", str(log_dir), verb]
    argv += [world.name] if verb == "run" else ["--world", world.name]
    argv += ["--model", "human/web", "--display", "none"]
    for key, value in args.items():
        argv += ["-T", f"{key}={value}"]
    return argv


@contextmanager
def human_run(
    world: str,
    tmp: Path,
    *,
    journal: Path | None = None,
    extra: tuple[str, ...] = (),
    verb: str = "eval",
) -> Iterator[HumanRun]:
    """`inspect eval ... --model human/web` (or, `verb`, `checkout-consent run` or `suite`)
    in a subprocess, killed when the block ends."""
    task, args, _ = WORLD_RUNS[world]
    port = free_port()
    log_dir = tmp / f"human-{port}"
    if verb == "eval":
        argv = _eval_argv(task, "human/web", args, log_dir)
    else:
        argv = _cli_argv(verb, world, args, log_dir)
    argv += ["-M", f"port={port}", "-M", f"journal={journal or tmp / 'journal.jsonl'}", *extra]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # run from the temporary folder: a checkout's egg-info must not shadow the installed
    # package's registry (storefront_v1 is registered by name)
    process = subprocess.Popen(
        argv, env=env, cwd=tmp, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    run = HumanRun(process, f"http://127.0.0.1:{port}/", log_dir)
    try:
        yield run
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        assert process.stderr is not None
        process.stderr.close()


def next_turn(run: HumanRun, last: object, timeout: float = 600) -> list[Any] | None:
    """The open turn once it differs from `last` (None: the run has ended)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = run.status()
        if status is not None and status["turn"] and status["turn"] != last:
            return list(status["turn"])
        if run.process.poll() is not None:
            return None
        time.sleep(0.05)
    raise TimeoutError("no turn opened")


@contextmanager
def browser_page(width: int = 1280) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = chromium()
    assert executable is not None, "CI needs chromium: .ci/run installs it"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport={"width": width, "height": 900})
        finally:
            browser.close()


def fill_call(page: Any, tool: str, args: dict[str, Any]) -> Any:
    """Fill `tool`'s form with `args`, as a person would; the form (to click a button of)."""
    form = page.locator(f'form[aria-labelledby="t.{tool}"]')
    for name, value in args.items():
        field = form.locator(f'[id="{tool}.{name}"]')
        if value is None:
            form.locator(f'input[name="null.{name}"]').check()
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(json.dumps(value) if isinstance(value, bool) else str(value))
        else:
            field.fill(value if isinstance(value, str) else json.dumps(value))
    return form


def add_call(page: Any, tool: str, args: dict[str, Any]) -> None:
    """Add a call to the turn ("Add ... to this turn") and wait for the page showing it."""
    button = f"Add {tool} to this turn"
    fill_call(page, tool, args).get_by_role("button", name=button, exact=True).click()
    page.wait_for_load_state()
    page.locator("#qh").wait_for()


def fill_move(page: Any, move: Move) -> None:
    """Fill the page's form with one move and submit it, as a person would."""
    kind, what = move
    if kind == "reply":
        page.locator("#reply").fill(what)
        page.get_by_role("button", name="Send reply").click()
        return
    *first, (tool, args) = what  # the turn's earlier calls are added, the last one sends
    for earlier in first:
        add_call(page, *earlier)
    fill_call(page, tool, args).get_by_role("button", name=f"Call {tool}", exact=True).click()


def on_turn(page: Any, turn: list[Any]) -> None:
    """Wait until the page shows `turn` (the waiting page reloads itself when it opens)."""
    sample, epoch, number = turn
    title = f"Sample {sample}, epoch {epoch}: turn {number}"
    page.locator("h1", has_text=re.compile(f"^{re.escape(title)}$")).wait_for(timeout=600_000)


def play(run: HumanRun, page: Any, moves: list[Move], *, until: int | None = None) -> int:
    """Play `moves` through the page (stop after `until` of them); the number played.
    The page is opened once; after each move it finds the next turn by itself."""
    last: object = None
    played = 0
    for move in moves[:until]:
        turn = next_turn(run, last)
        assert turn is not None, f"the run ended after {played} of {len(moves)} moves"
        if page.url != run.url:
            page.goto(run.url)
        on_turn(page, turn)
        fill_move(page, move)
        page.wait_for_load_state()
        last, played = turn, played + 1
    return played
