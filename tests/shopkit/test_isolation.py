"""The isolation table of the shopkit README, row by row: each attack tried by an agent
through Inspect's own `bash()` and `python()` tools on the default sandbox
(`checkout-consent`), and the refusal where a machine cannot isolate (fail closed)."""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from inspect_ai.tool import Tool, bash, python

from checkout_consent.cli.main import main as cli_main
from checkout_consent.runtime.compat import prerequisite_error, sandbox_in_context
from checkout_consent.shopkit.grading import grade_build, seed_dir
from checkout_consent.shopkit.sandbox import isolation
from checkout_consent.shopkit.sandbox.environment import ConfinedSandbox
from tests.shopkit.test_hostile import _alive

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "tasks" / "shopkit" / "reference" / "shopkit" / "money.py"


@pytest.fixture
def env() -> Iterator[ConfinedSandbox]:
    made = ConfinedSandbox()
    yield made
    made.close()


def agent(env: ConfinedSandbox, tool: Tool, code: str) -> str:
    """What the agent reads back from one call of Inspect's `tool` on `env`."""

    async def call() -> str:
        with sandbox_in_context(env):
            return str(await tool(code))

    return anyio.run(call)


def test_isolation__proc_shows_no_evaluator_process_and_no_signal_gets_out(
    env: ConfinedSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = secrets.token_hex(8)
    monkeypatch.setenv("CC_EVALUATOR_SECRET", token)
    walk = (
        'p=$$; while [ "$p" -gt 1 ]; do echo up $p; '
        "p=$(awk '/^PPid/ {print $2}' /proc/$p/status); done; echo top $p; "
        "for f in /proc/[0-9]*; do cat $f/cmdline $f/environ; echo; done 2>&1 | tr '\\0' ' '; "
        f"kill -0 {os.getpid()} || echo no-signal-out"
    )
    seen = agent(env, bash(timeout=30), walk)
    assert token not in seen and "pytest" not in seen and "no-signal-out" in seen
    assert "top 1" in seen and seen.count("up ") <= 3  # its ancestors end at PID 1, ours
    assert "-I -S -B -c" in seen  # PID 1 of the namespace is the supervisor


def test_isolation__an_exported_secret_is_not_in_the_agents_environment(
    env: ConfinedSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = secrets.token_hex(8)
    monkeypatch.setenv("OPENAI_API_KEY", token)
    seen = agent(env, python(timeout=30), "import os\nprint(sorted(os.environ.items()))")
    assert token not in seen and "OPENAI_API_KEY" not in seen
    assert "PATH" in seen  # the allow-list is there, nothing else of ours


def _python_paths() -> list[Path]:
    """What of the running Python the view binds (isolation.py: its prefix; of a virtual
    environment only `bin/` and `pyvenv.cfg`), which may lie inside the checkout or $HOME
    (CI's venv is `<checkout>/.venv`, pyenv's Python is under `~/.pyenv`)."""
    python, _ = isolation._python()
    return [Path(p) for p in python]


def _outside_python(listing: str) -> list[str]:
    """The paths of a `find` listing that are neither a bound Python path, inside one, nor
    a directory on the way to one (a mount point's parents)."""
    bound = _python_paths()
    return [
        line
        for line in listing.splitlines()
        if line.startswith("/")
        and not any(
            Path(line) == b or b in Path(line).parents or Path(line) in b.parents for b in bound
        )
    ]


def test_isolation__the_reference_and_the_checkout_are_absent(env: ConfinedSandbox) -> None:
    assert REFERENCE.is_file()  # here, on the evaluator's side
    home = Path.home()
    seen = agent(env, bash(timeout=30), f"cat {REFERENCE}; ls {REPO / 'tasks'}")
    assert seen.count("No such file or directory") == 2
    assert REFERENCE.read_text() not in seen
    for tree in (REPO, home):  # nothing of either but the running Python's own paths
        listing = agent(env, bash(timeout=30), f"find {tree} -maxdepth 6 2>&1 | head -n 2000")
        assert _outside_python(listing) == [], (tree, listing[:2000])
    seen = agent(env, python(timeout=30), "import checkout_consent")
    assert "ModuleNotFoundError" in seen  # nor the evaluator's own code, through an import


def test_isolation__the_system_is_read_only_and_no_wall_comes_down(env: ConfinedSandbox) -> None:
    seen = agent(env, bash(timeout=30), "touch /usr/x /x; mount -o remount,rw /usr; umount /usr")
    assert seen.count("Read-only file system") == 2 and "permission denied" in seen


def test_isolation__udp_and_netlink_see_no_network(env: ConfinedSandbox) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
        host.bind(("127.0.0.1", 0))
        host.settimeout(0.5)
        port = host.getsockname()[1]
        code = (
            "import socket\nprint(socket.if_nameindex())\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            f"s.sendto(b'leak', ('127.0.0.1', {port}))"
        )
        seen = agent(env, python(timeout=30), code)
        with pytest.raises(TimeoutError):
            host.recv(16)
    assert "[(1, 'lo')]" in seen and "Network is unreachable" in seen


def test_isolation__tcp_cannot_connect_out(env: ConfinedSandbox) -> None:
    with socket.socket() as host:
        host.bind(("127.0.0.1", 0))
        host.listen()
        host.settimeout(0.5)
        port = host.getsockname()[1]
        code = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=5)"
        seen = agent(env, python(timeout=30), code)
        with pytest.raises(TimeoutError):
            host.accept()
    assert "Network is unreachable" in seen or "Permission denied" in seen


@pytest.mark.parametrize("abstract", [False, True], ids=["socket_file", "abstract"])
def test_isolation__unix_sockets_of_the_machine_are_out_of_reach(
    env: ConfinedSandbox, tmp_path: Path, abstract: bool
) -> None:
    name = f"\0cc-{secrets.token_hex(6)}" if abstract else str(tmp_path / "host.sock")
    with socket.socket(socket.AF_UNIX) as host:
        host.bind(name)
        host.listen()
        host.settimeout(0.5)
        code = f"import socket\nsocket.socket(socket.AF_UNIX).connect({name!r})"
        seen = agent(env, python(timeout=30), code)
        with pytest.raises(TimeoutError):
            host.accept()
    assert ("ConnectionRefusedError" if abstract else "FileNotFoundError") in seen


def test_isolation__a_background_process_does_not_outlive_the_turn(env: ConfinedSandbox) -> None:
    token = f"3131.{secrets.randbelow(10**6)}"
    seen = agent(env, bash(timeout=30), f"(setsid nohup sleep {token} >/dev/null 2>&1 &); echo ok")
    assert seen.strip() == "ok" and _alive(token) == []
    assert "sleep" not in agent(env, bash(timeout=30), "ps -eo comm")  # nor in the next turn


def test_isolation__a_fork_flood_stops_at_the_namespace_cap(env: ConfinedSandbox) -> None:
    code = (
        "import os, time\nn = 0\nwhile True:\n    try:\n        pid = os.fork()\n"
        "    except OSError as err:\n        print('stopped', n, err.strerror)\n        break\n"
        "    if pid == 0:\n        time.sleep(60)\n        os._exit(0)\n    n += 1"
    )
    seen = agent(env, python(timeout=30), code)
    stopped = seen.split()
    assert stopped[0] == "stopped" and int(stopped[1]) < isolation.PID_MAX
    assert "Resource temporarily unavailable" in seen


def test_isolation__a_disk_fill_stops_at_the_file_and_scratch_caps(env: ConfinedSandbox) -> None:
    code = (
        "for path in ('big.bin', '/tmp/a', '/dev/shm/a', '/fill'):\n    try:\n"
        "        with open(path, 'wb') as out:\n"
        "            for _ in range(40):\n                out.write(bytes(1 << 20))\n"
        "    except OSError as err:\n        print(path, err.strerror)"
    )
    seen = agent(env, python(timeout=30), code)
    assert "big.bin File too large" in seen
    for scratch in ("/tmp/a", "/dev/shm/a"):  # Landlock refuses; without it, 16 MiB tmpfs
        assert f"{scratch} Permission denied" in seen or f"{scratch} No space left" in seen
    assert "/fill Read-only file system" in seen
    assert (env.cell.outside(env.build) / "big.bin").stat().st_size <= 16 * 1024 * 1024


@pytest.fixture
def fresh_probe() -> Iterator[None]:
    isolation.problem.cache_clear()
    yield
    isolation.problem.cache_clear()


def test_isolation__without_unshare_every_local_run_refuses_in_one_line(
    fresh_probe: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(isolation, "UNSHARE", "no-such-unshare")
    with pytest.raises(isolation.IsolationUnavailable, match="--sandbox docker instead"):
        grade_build(seed_dir(), "T1")  # never a score
    with pytest.raises(prerequisite_error(), match="no-such-unshare"):
        anyio.run(ConfinedSandbox.task_init, "shopkit", None)
    assert cli_main(["shopkit", "grade", "--build", str(seed_dir()), "--task", "T1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot isolate a run here (no-such-unshare" in err[0]


def test_isolation__a_kernel_that_refuses_a_wall_is_named_and_nothing_runs(
    fresh_probe: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(isolation, "PID_MAX", 10)  # below the kernel's least: the cap fails
    assert "pid_max" in str(isolation.problem())
    with pytest.raises(isolation.IsolationUnavailable, match="run with --sandbox docker"):
        isolation.require()
