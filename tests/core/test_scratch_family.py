"""Adding a world touches its folder, its tests and one roster line, nothing else, and
CONTRIBUTING's "Adding a family" is how: its bash block is performed as written.

A copy of this checkout gets a new world `piggybank` by the guide's steps alone (the scratch
world tests/scratch/coinjar/ and its tests copied and renamed, the roster line its comment
names, the documented generators, which rewrite only their marked blocks and the board),
and the copy is used as a person would: `inspect eval`, `checkout-consent list` and
`run --json`, the board, and the scoring API on loopback; the shared tests that loop over
the worlds pass there. The test fails if any other file had to change. The guide names
every file of the template (a fast test here)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from checkout_consent.runtime.provenance import REPO_ROOT

SCRATCH = REPO_ROOT / "tests" / "scratch"
TEMPLATE = "coinjar"  # the scratch world the guide starts from
NAME = "piggybank"  # the world the guide's steps make of it
GUIDE = REPO_ROOT / "CONTRIBUTING.md"
# the one step that is not a command: the roster's line, named by a comment of the block
ROSTER_STEP = re.compile(r'^# (\S+): "<world>", as the last line of ROSTER$')
# files a documented generator rewrites: only their marked blocks may change
GENERATED_FILES = ("README.md", "docs/results.md", "docs/suite.md")
GENERATED_TREES = ("leaderboard/site/", "leaderboard/README.md")  # the board, rebuilt whole
# what the world brings: its folder, its tests, and one roster line
ITS_OWN = (f"checkout_consent/{NAME}/", f"tests/{NAME}/")
ROSTER = "checkout_consent/families.py"
# the shared tests that loop over the worlds (each world's rows, docs, board, service)
SHARED_TESTS = (
    f"tests/{NAME}",
    "tests/core/test_architecture.py",
    "tests/core/test_eval_yaml.py",
    "tests/core/test_docs.py",
    "tests/core/test_newcomer.py",
    "tests/core/test_hostile_calls.py",
    "tests/core/test_example_traces.py",
    "tests/runtime/test_task_args.py",
    "tests/serve/test_examples.py",
    "tests/serve/test_worlds.py",
    "tests/cli/test_cli.py",
    "tests/cli/test_suite.py",
    "tests/leaderboard/test_site.py",
    "tests/cli/test_results.py",
)
TIMEOUT_S = 900
STEP_TIMEOUT_S = 2700  # a generator runs every world's controls through Inspect: slow under load


def _tracked() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True, timeout=60
    )
    return [p for p in out.stdout.decode().split("\0") if p and (REPO_ROOT / p).is_file()]


def _digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file()
        and not any(part in {"__pycache__", ".pytest_cache", "logs", ".git"} for part in p.parts)
        and ".egg-info" not in p.as_posix()
    }


def _outside_blocks(text: str) -> str:
    """The text with every generated block's body taken out (its markers kept)."""
    return re.sub(
        r"(<!-- ([\w-]+):(?:start|begin) -->).*?(<!-- \2:end -->)", r"\1\3", text, flags=re.S
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(copy: Path, *argv: str, timeout: int = TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    """`argv` in the copy: its package first on the path, this Python's `python` and
    `checkout-consent` first on PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "PYTHONPATH": str(copy), "PATH": path}
    return subprocess.run(
        list(argv), cwd=copy, env=env, capture_output=True, text=True, timeout=timeout
    )


def _cli(copy: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return _run(copy, sys.executable, "-m", "checkout_consent.cli", *argv)


def adding_a_family() -> str:
    """CONTRIBUTING's "Adding a family" section, its vocabulary included."""
    return GUIDE.read_text(encoding="utf-8").split("\n## Adding a family\n", 1)[1].split("\n## ")[0]


def guide_steps() -> list[str]:
    """The lines of the section's bash block, as written."""
    block = re.search(r"^```bash\n(.*?)^```", adding_a_family(), flags=re.S | re.M)
    assert block, 'CONTRIBUTING\'s "Adding a family" has no bash block of steps'
    return [line for line in block.group(1).splitlines() if line.strip()]


def _add_to_roster(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    roster = re.search(r"^ROSTER = \(\n.*?^\)", text, flags=re.S | re.M)
    assert roster, f"{path} has no ROSTER = (...) of one line per world"
    end = roster.end() - 1
    path.write_text(f'{text[:end]}    "{NAME}",\n{text[end:]}', encoding="utf-8")


def perform(copy: Path, step: str) -> None:
    """One line of the guide's block: the roster comment is done as it says, another
    comment skipped, a command run by bash in the copy with `<world>` the new name."""
    roster = ROSTER_STEP.match(step)
    if roster:
        _add_to_roster(copy / roster.group(1))
    elif not step.startswith("#"):
        done = _run(copy, "bash", "-c", step.replace("<world>", NAME), timeout=STEP_TIMEOUT_S)
        assert done.returncode == 0, (step, done.stderr[-3000:])


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The copy with the world added by the guide's steps; the digests before, kept."""
    root = tmp_path_factory.mktemp("scratch") / "checkout"
    for rel in _tracked():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / rel, root / rel)
    for argv in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"],
    ):
        subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True, timeout=300)
    before = _digests(root)
    steps = guide_steps()
    assert any(ROSTER_STEP.match(s) for s in steps), "the guide's block names no roster line"
    imported = _run(
        root, sys.executable, "-c", "import checkout_consent; print(checkout_consent.__file__)"
    )
    assert imported.stdout.strip() == str(root / "checkout_consent" / "__init__.py"), imported
    for step in steps:
        perform(root, step)
    (root / ".before.json").write_text(json.dumps(before))
    return root


def test_adding_a_family__the_guide_names_every_file_of_the_template() -> None:
    prose = re.sub(r"```.*?```", "", adding_a_family(), flags=re.S)
    named = set(re.findall(r"`([^`]+)`", prose))
    template = [*(SCRATCH / TEMPLATE).iterdir(), *(SCRATCH / f"{TEMPLATE}_tests").iterdir()]
    files = {p.name + "/" * p.is_dir() for p in template if not p.name.startswith("test_")}
    files.discard("__pycache__/")
    missing = [
        f for f in sorted(files) if not {f, f.rstrip("/"), f"{f.removesuffix('.py')}"} & named
    ]
    assert not missing, f'CONTRIBUTING\'s "Adding a family" does not name {missing}'
    assert {"README.md", "examples/", "__init__.py", "rows.py", "eval.yaml"} <= files


@pytest.mark.slow
def test_scratch_world__no_other_file_had_to_change(copy: Path) -> None:
    before = json.loads((copy / ".before.json").read_text())
    after = _digests(copy)
    after.pop(".before.json")
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    theirs = {p for p in changed if p.startswith(ITS_OWN)}
    assert theirs, "the world's folder and tests were not added"
    generated = {p for p in changed if p in GENERATED_FILES or p.startswith(GENERATED_TREES)}
    assert changed - theirs - generated == {ROSTER}, sorted(changed - theirs - generated)
    old = subprocess.run(
        ["git", "show", f"HEAD:{ROSTER}"], cwd=REPO_ROOT, capture_output=True, text=True
    ).stdout
    new = (copy / ROSTER).read_text(encoding="utf-8").splitlines()
    assert [line for line in new if line not in old.splitlines()] == [f'    "{NAME}",']
    for rel in generated & set(GENERATED_FILES):
        was = (REPO_ROOT / rel).read_text(encoding="utf-8")
        now = (copy / rel).read_text(encoding="utf-8")
        assert _outside_blocks(now) == _outside_blocks(was), f"{rel} changed outside its blocks"
    assert len((copy / "README.md").read_text().splitlines()) <= 250
    assert (
        NAME in (copy / "README.md").read_text() and NAME in (copy / "docs/results.md").read_text()
    )


@pytest.mark.slow
def test_scratch_world__plays_on_every_surface(copy: Path, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    done = _run(
        copy,
        sys.executable,
        "-m",
        "inspect_ai._cli.main",
        "eval",
        f"checkout_consent/{NAME}",
        "--model",
        f"control/{NAME}-exact",
        "--log-dir",
        str(logs),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(list(logs.glob("*.eval"))) == 1
    listed = _cli(copy, "list", NAME)
    assert listed.returncode == 0, listed.stderr
    assert f"{NAME} (world {NAME}-1" in listed.stdout and f"control/{NAME}-exact" in listed.stdout
    assert "tasks: task ids, comma-separated" in listed.stdout  # the task's docstring
    ran = _cli(copy, "--log-dir", str(tmp_path / "cli"), "run", NAME, "--json")
    assert ran.returncode == 0, ran.stderr[-3000:]
    runs = json.loads(ran.stdout)
    assert {r["family"] for r in runs} == {NAME} and all(r["records"] for r in runs)
    board = _cli(copy, "leaderboard", "build", "--check")
    assert board.returncode == 0, board.stderr[-2000:]
    assert NAME in (copy / "leaderboard" / "site" / "index.html").read_text()
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(copy)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "checkout_consent.cli",
            "serve-api",
            "--db",
            str(tmp_path / "api.db"),
            "--port",
            str(port),
        ],
        cwd=copy,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(120):
            try:
                tasks = httpx.get(f"{url}/v1/{NAME}/tasks", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.5)
        else:
            pytest.fail("the API never answered")
        assert tasks.status_code == 200 and tasks.json()["tasks"] == ["small", "large"]
        body = {"task": "small", "calls": [{"tool": "pay", "args": {"amount": "12.50"}}]}
        scored = httpx.post(f"{url}/v1/{NAME}/score", json=body, timeout=60)
        assert scored.status_code == 200, scored.text
        assert scored.json()["record"]["score"] == 1.0
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
def test_scratch_world__the_shared_tests_pass_with_it(copy: Path) -> None:
    done = _run(
        copy,
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "not slow and not docker",
        *SHARED_TESTS,
        # these two build tasks through Inspect's registry in process, by the bare name an
        # installed package registers; from a PYTHONPATH copy Inspect registers them under
        # another name (`inspect eval` of the new world is played above instead)
        "--deselect",
        "tests/runtime/test_task_args.py::test_task_args__inspect_eval_refuses_a_key_the_world_does_not_take",
        "--deselect",
        "tests/runtime/test_task_args.py::test_task_args__the_task_declares_exactly_the_worlds_parameters",
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
