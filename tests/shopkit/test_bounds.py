"""The sandbox's total bounds (issue 41, item 4): one command held 1,817 MiB across three
processes and another wrote 344 MiB into the sample's directory. Now a sample's commands
share one memory bound (a cgroup: every process and the files of its tree) and its tree is
a size-capped tmpfs; a one-off run (a graded build, `run_cli`) gets its own of each. Here
the bounds are lowered (256 MiB of memory, 64 MiB of disk) so no test holds more than that:
a command asking for 3 GiB across processes, or writing 1 GiB, is stopped at the bound, its
run is the agent's failure, and the evaluator goes on."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from checkout_consent.cli.main import main as cli_main
from checkout_consent.shopkit.grading import grade_build, seed_dir
from checkout_consent.shopkit.sandbox import bounds, execution, isolation
from checkout_consent.shopkit.sandbox.environment import ConfinedSandbox
from checkout_consent.shopkit.sandbox.prepare import RUN_LIMITS

MEMORY_MIB, DISK_MIB = 256, 64
# eight processes of 384 MiB each, every page touched: 3 GiB asked for in all
GREEDY = (
    "import os\n"
    "kids = []\n"
    "for _ in range(8):\n"
    "    pid = os.fork()\n"
    "    if pid == 0:\n"
    "        block = b'x' * (384 << 20)\n"
    "        os._exit(0)\n"
    "    kids.append(pid)\n"
    "killed = sum(os.waitstatus_to_exitcode(os.waitpid(k, 0)[1]) == -9 for k in kids)\n"
    "print('killed', killed)\n"
    "raise SystemExit(1 if killed else 0)\n"
)


def filler(file_mib: int) -> str:
    """1 GiB in files of `file_mib` (the per-file cap), until the disk is full."""
    return (
        "written = 0\n"
        "try:\n"
        f"    for n in range({1024 // file_mib}):\n"
        "        with open(f'fill-{n}.bin', 'wb') as out:\n"
        f"            for _ in range({file_mib}):\n"
        "                out.write(b'x' * (1 << 20))\n"
        "                written += 1\n"
        "except OSError as err:\n"
        "    print('stopped', written, err.strerror)\n"
        "    raise SystemExit(1)\n"
        "print('wrote', written)\n"
    )


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "MEMORY_MIB", MEMORY_MIB)
    monkeypatch.setattr(bounds, "DISK_MIB", DISK_MIB)
    monkeypatch.setattr(execution, "RESULTS", execution.Results())


@pytest.fixture
def env(small: None) -> Iterator[ConfinedSandbox]:
    sandbox = ConfinedSandbox()
    yield sandbox
    sandbox.close()


def _tree_mib(root: Path) -> float:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / (1 << 20)


@pytest.mark.slow
def test_bounds__3gib_across_processes_is_stopped_at_the_samples_memory_bound(
    env: ConfinedSandbox,
) -> None:
    done = anyio.run(lambda: env.exec(["python3", "-c", GREEDY], timeout=120))
    assert not done.success and done.stdout.startswith("killed ")
    assert int(done.stdout.split()[1]) >= 1, done.stdout
    assert f"stopped at the sandbox's memory bound, {MEMORY_MIB} MiB" in done.stderr
    assert 0 < env.cell.cgroup.peak_mib() <= MEMORY_MIB  # never more held at once
    after = anyio.run(lambda: env.exec(["python3", "-c", "print('still here')"]))
    assert after.success and after.stdout == "still here\n"  # the sample goes on


@pytest.mark.slow
def test_bounds__a_run_tool_asking_for_3gib_is_the_agents_failure(small: None) -> None:
    result = execution.run_command({}, {"mode": "python", "code": GREEDY}, RUN_LIMITS)
    assert result["exit_code"] not in (0, None) and result["output"].startswith("killed ")


def test_bounds__1gib_written_is_stopped_at_the_samples_disk_bound(env: ConfinedSandbox) -> None:
    done = anyio.run(lambda: env.exec(["python3", "-c", filler(16)], timeout=60))
    assert not done.success and "No space left on device" in done.stdout, done
    tree = env.cell.outside(env.root)
    assert _tree_mib(tree) <= DISK_MIB
    assert list(env.root.iterdir()) == []  # the evaluator's disk: untouched
    cleared = anyio.run(lambda: env.exec(["sh", "-c", "rm fill-*.bin && echo ok > after"]))
    assert cleared.success and anyio.run(env.read_file, "after") == "ok\n"
    root = env.cell.outside(Path("/"))
    env.close()
    assert not (root / env.root.relative_to("/")).exists() or not os.listdir(env.root)


def test_bounds__a_run_tool_writing_1gib_is_stopped_and_leaves_nothing(small: None) -> None:
    result = execution.run_command(
        {}, {"mode": "python", "code": filler(RUN_LIMITS.file_mib)}, RUN_LIMITS
    )
    assert result["exit_code"] == 1 and "No space left on device" in result["output"]
    assert int(result["output"].split()[1]) <= DISK_MIB


def test_bounds__without_a_cgroup_every_run_refuses_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.setattr(bounds, "_mounts", lambda: {})
    bounds.problem.cache_clear()
    request.addfinalizer(bounds.problem.cache_clear)
    with pytest.raises(bounds.BoundsUnavailable, match="run with --sandbox docker instead"):
        isolation.require()
    with pytest.raises(bounds.BoundsUnavailable):
        grade_build(seed_dir(), "T1")  # never a score
    with pytest.raises(bounds.BoundsUnavailable):
        ConfinedSandbox()
    bounds.problem.cache_clear()  # a cached "fine" is no way round: each run makes its own
    assert bounds.problem() is not None
    monkeypatch.setattr(bounds, "problem", lambda: None)
    with pytest.raises(bounds.BoundsUnavailable):
        execution.run_command({}, {"mode": "python", "code": "print(1)"}, RUN_LIMITS)
    assert cli_main(["shopkit", "grade", "--build", str(seed_dir()), "--task", "T1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot bound a run's memory here" in err[0], err
