"""shopkit on Inspect's sandbox interface: the checkout-consent environment (the task's
default), runs and grading through `sandbox()`, and Inspect's own tools on the build."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai import eval as inspect_eval

from checkout_consent.core.world import apply
from checkout_consent.runtime.compat import registered_sandbox
from checkout_consent.runtime.scorer import judge
from checkout_consent.shopkit import WORLD
from checkout_consent.shopkit.actions import ACTIONS
from checkout_consent.shopkit.dataset import build_tree, resolve
from checkout_consent.shopkit.generate import generate
from checkout_consent.shopkit.grading import grade_tree
from checkout_consent.shopkit.inspect_tools import read_back
from checkout_consent.shopkit.sandbox import execution
from checkout_consent.shopkit.sandbox.environment import NAME, ConfinedSandbox
from checkout_consent.shopkit.sandbox.prepare import RUN_LIMITS
from checkout_consent.shopkit.task import shopkit, shopkit_inspect_tools
from tests.shopkit.conftest import in_sandbox
from tests.shopkit.test_hostile import _alive


@pytest.fixture
def env() -> Iterator[ConfinedSandbox]:
    made = ConfinedSandbox()
    yield made
    made.close()


def test_sandbox_env__is_registered_and_the_tasks_default() -> None:
    assert registered_sandbox(NAME) is ConfinedSandbox
    made = shopkit(task="T1")
    assert made.sandbox is not None and made.sandbox.type == NAME


def test_sandbox_env__exec_is_confined_with_input_output_and_exit_code(
    env: ConfinedSandbox, tmp_path: Path
) -> None:
    outside = tmp_path / "pwned"
    script = f"cat; pwd; echo oops >&2; touch {outside} || echo refused; exit 3"
    done = anyio.run(lambda: env.exec(["bash", "-c", script], input="in\n"))
    assert (done.returncode, done.success) == (3, False)
    assert done.stdout == f"in\n{env.build}\nrefused\n"
    assert done.stderr.startswith("oops\n") and not outside.exists()


def test_sandbox_env__processes_a_command_leaves_behind_are_killed(env: ConfinedSandbox) -> None:
    token = f"4545.{os.getpid()}{time.monotonic_ns() % 100000}"
    script = f"setsid sleep {token} & (nohup sleep {token} &) ; echo started"
    done = anyio.run(lambda: env.exec(["bash", "-c", script]))
    assert done.stdout == "started\n" and _alive(token) == []


def test_sandbox_env__a_command_past_its_timeout_raises_timeout_error(
    env: ConfinedSandbox,
) -> None:
    with pytest.raises(TimeoutError):
        anyio.run(lambda: env.exec(["sleep", "30"], timeout=1))


def test_sandbox_env__files_outside_the_sample_are_refused(
    env: ConfinedSandbox, tmp_path: Path
) -> None:
    (tmp_path / "secret").write_text("s")
    (env.cell.outside(env.build) / "link").symlink_to(tmp_path / "secret")
    anyio.run(env.write_file, "shopkit/new.py", "x = 1\n")
    assert anyio.run(env.read_file, "shopkit/new.py") == "x = 1\n"
    for path in ("link", "../../secret", str(tmp_path / "secret")):
        with pytest.raises(PermissionError):
            anyio.run(env.read_file, path)
        with pytest.raises(PermissionError):
            anyio.run(env.write_file, path, "overwritten")
    assert (tmp_path / "secret").read_text() == "s"


def _runs_and_grades() -> list[Any]:
    """Two commands and two grades, every result fresh (nothing kept from another run)."""
    execution.RESULTS = execution.Results()
    out: list[Any] = []
    for name in ("seed", "reference"):
        files = dict(build_tree(name))
        out.append(
            execution.run_command(files, {"mode": "cli", "argv": ["total", "O3"]}, RUN_LIMITS)
        )
        out.append(grade_tree(files, "T4").model_dump(exclude={"seconds"}))
    out.append(execution.run_command({"../x": ""}, {"mode": "python", "code": ""}, RUN_LIMITS))
    return out


def test_sandbox_env__runs_and_grades_give_what_they_give_here(
    env: ConfinedSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execution, "RESULTS", execution.Results())
    here = _runs_and_grades()
    there = in_sandbox(env, _runs_and_grades)
    assert there == here
    assert here[1]["landlock"] and here[3]["change"] == 1.0 and here[0]["exit_code"] == 0
    assert "escapes the build" in here[4]["output"]
    assert sorted(p.name for p in env.cell.outside(env.root).iterdir()) == [
        "build",
        "tmp",
    ]  # runs removed


def test_inspect_tools__read_back_keeps_text_files_under_plain_names(
    env: ConfinedSandbox,
) -> None:
    (env.cell.outside(env.build) / "shopkit").mkdir()
    (env.cell.outside(env.build) / "shopkit/money.py").write_text("x = 1\n")
    (env.cell.outside(env.build) / "blob.bin").write_bytes(b"\xff\xfe")
    (env.cell.outside(env.build) / "odd name.py").write_text("")
    (env.cell.outside(env.build) / "shopkit/__pycache__").mkdir()
    (env.cell.outside(env.build) / "shopkit/__pycache__/money.pyc").write_bytes(b"\x00")
    (env.cell.outside(env.build) / "loop").symlink_to(env.build)
    files, skipped = anyio.run(read_back, env)
    assert files == {"shopkit/money.py": "x = 1\n"}
    assert sorted(skipped) == ["blob.bin", "loop", "odd name.py"]


def test_inspect_tools__the_traced_action_follows_the_sandbox_and_refuses_forgeries() -> None:
    state = generate(*resolve(WORLD.dataset.task("T1")))
    result = {
        "output": "ok",
        "files": {"shopkit/new.py": "y = 2\n"},
        "removed": ["data/orders.json"],
    }
    step = apply(ACTIONS, state, "bash", {"command": "true", "result": result})
    assert step.ok and step.observation == "ok"
    assert (
        step.state.tree()["shopkit/new.py"] == "y = 2\n"
        and "data/orders.json" not in step.state.tree()
    )
    for forged in (
        None,
        {"output": 1},
        {"output": "", "files": {"../etc/x": ""}},
        {"output": "", "files": []},
    ):
        assert not apply(ACTIONS, state, "python", {"code": "", "result": forged}).ok


@pytest.mark.slow
def test_inspect_tools__the_control_fixes_the_build_with_inspects_bash(tmp_path: Path) -> None:
    """A control standing in for a model works with Inspect's bash and python tools; the
    record graded in the sandbox is the one re-grading the log here gives."""
    (log,) = inspect_eval(
        shopkit(task="T4"),
        solver=shopkit_inspect_tools(),
        model="control/shopkit-inspect-reference",
        display="none",
        log_dir=str(tmp_path),
        score_display=False,
    )
    assert log.status == "success" and log.samples
    sample = log.samples[0]
    score = sample.scores["shopkit_scorer"]
    assert score.value == {"change": 1.0, "regress": 1.0, "regress_extra": 1.0, "integrity": 1.0}
    used = [m.function for m in sample.messages if m.role == "tool"]
    assert used[:2] == ["bash", "bash"] and "python" in used
    assert str(log.eval.solver).endswith("shopkit_inspect_tools")
    store = {k.split(":", 1)[1]: v for k, v in sample.store.items() if k.startswith("RunStore:")}
    again = judge(WORLD, sample.id, sample.metadata, store, sample.messages)
    assert again.record is not None
    assert json.loads(again.record.model_dump_json()) == score.metadata["record"]
