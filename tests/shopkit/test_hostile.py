"""Hostile builds: each really does the hostile thing, and is graded correctly and fast,
both here and through the checkout-consent sandbox environment (`sandbox()`'s path: the
same guarantees, the supervisor nested in the environment's confined exec)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from checkout_consent.shopkit.assertions import CHANGE, REGRESS
from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.grading import grade_build, reference_values
from checkout_consent.shopkit.record import GradeReport
from checkout_consent.shopkit.sandbox.sandbox import Limits
from tests.shopkit.conftest import MakeBuild, grade_in_docker, grade_in_sandbox, verdicts

FAST = Limits(deadline_s=3.0, probe_s=0.15)
SHORT = Limits(deadline_s=1.5, probe_s=0.15)


ROUTE = {"via": "here"}


ROUTES = [
    "here",
    pytest.param("sandbox", marks=pytest.mark.slow),
    pytest.param("docker", marks=pytest.mark.docker),
]


@pytest.fixture(autouse=True, params=ROUTES)
def route(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hostile build is graded here, through the checkout-consent sandbox environment
    (`-m slow`) and in a container of the compose file's image (`-m docker`)."""
    monkeypatch.setitem(ROUTE, "via", request.param)


def timed(build: Path, task: str = "T4", limits: Limits = FAST) -> tuple[GradeReport, float]:
    """The grade and how long grading took (a sandbox's own start and stop not counted)."""
    if ROUTE["via"] == "here":
        started = time.monotonic()
        report = grade_build(build, task, limits)
        return report, time.monotonic() - started
    grade = {"sandbox": grade_in_sandbox, "docker": grade_in_docker}[ROUTE["via"]]
    return grade(build, task, limits)


def forged_records(nonce: str) -> str:
    """Every probe's *expected* value as result records, as a forger would write them."""
    expected = reference_values()
    records = [{"nonce": nonce, "kind": "import", "ok": True}]
    records += [
        {"nonce": nonce, "kind": "probe", "name": p.name, "value": expected[p.name]}
        for p in (*REGRESS, *CHANGE["T4"])
    ]
    records.append({"nonce": nonce, "kind": "done"})
    return "\n".join(json.dumps(r) for r in records) + "\n"


def test_hostile__fake_results_printed_and_written_to_every_fd_are_ignored(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    fake = forged_records("0" * 32) + "change 1.0 regress 1.0: ALL PASSED\n"
    build = make_build(
        f"import os, sys\nFAKE = {fake!r}\nprint(FAKE)\nsys.stderr.write(FAKE)\n"
        "for fd in range(3, 64):\n    try:\n        os.write(fd, FAKE.encode())\n"
        "    except OSError:\n        pass\n"
    )
    report, seconds = timed(build)
    assert verdicts(report) == verdicts(seed_grades["T4"])
    assert report.change < 1.0 and seconds < 3.0


def test_hostile__exit_0_at_import_scores_zero_with_build_error(make_build: MakeBuild) -> None:
    for prelude, why in (
        ("import os\nos._exit(0)\n", "exited with status 0"),
        ("raise SystemExit(0)\n", "SystemExit"),
    ):
        report, seconds = timed(make_build(prelude))
        assert (report.change, report.regress) == (0.0, 0.0)
        assert report.build_error and why in report.build_error and seconds < 3.0


PATCHES = (
    "import builtins, json, os, signal\n"
    "builtins.isinstance = lambda *a: True\nbuiltins.type = lambda *a: str\n"
    "builtins.repr = lambda o: \"'$1.15'\"\nbuiltins.list = lambda *a: ['$1.15']\n"
    "builtins.eval = lambda *a, **k: '$1.15'\nbuiltins.dict = lambda *a, **k: {}\n"
    "signal.setitimer = lambda *a: None\n"
    'json.dumps = lambda *a, **k: \'{"kind": "done", "passed": true}\'\n'
    "os.write = lambda fd, data: len(data)\n"
)


def test_hostile__patched_builtins_and_modules_change_nothing(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    init = dict(build_tree("seed"))["shopkit/__init__.py"]
    build = make_build(
        files={
            "shopkit/__init__.py": init + "\nfrom shopkit import cli, "
            "db, money, orders, reports\n" + PATCHES
        }
    )
    report, _ = timed(build)
    assert verdicts(report) == verdicts(seed_grades["T4"])


def test_hostile__builtins_patched_inside_a_function_are_restored(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    reports = dict(build_tree("seed"))["shopkit/reports.py"]
    docstring = '    """An unpaid order is overdue once its due date has passed."""\n'
    body = "".join("    " + line + "\n" for line in PATCHES.splitlines())
    patched = reports.replace(docstring, docstring + body, 1)
    report, _ = timed(make_build(files={"shopkit/reports.py": patched}))
    assert verdicts(report) == verdicts(seed_grades["T4"])


def test_hostile__patched_harness_helpers_cannot_forge_a_pass(make_build: MakeBuild) -> None:
    build = make_build(
        "import sys\nharness = sys.modules['__main__']\n"
        "harness._encode = lambda value, depth=0: ['str', '$1.15']\n"
        "harness._cli = lambda args: ('cli', 0, 'PASS')\n"
    )
    report, _ = timed(build)
    assert report.change < 1.0 and report.regress < 0.5


def test_hostile__loop_at_import_is_stopped_at_the_deadline(make_build: MakeBuild) -> None:
    report, seconds = timed(make_build("while True:\n    pass\n"), limits=SHORT)
    assert (report.change, report.regress) == (0.0, 0.0)
    assert report.build_error and "did not finish importing" in report.build_error
    assert seconds < SHORT.deadline_s + 1.5


def _looping_fmt(ignore_alarm: bool) -> dict[str, str]:
    money = dict(build_tree("seed"))["shopkit/money.py"]
    head = "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n" if ignore_alarm else ""
    return {
        "shopkit/money.py": head
        + money.replace(
            '    """Show an amount', '    while True:\n        pass\n    """Show an amount', 1
        )
    }


def test_hostile__loop_in_a_function_fails_only_what_calls_it(make_build: MakeBuild) -> None:
    report, seconds = timed(make_build(files=_looping_fmt(ignore_alarm=False)))
    passed = {a.name for a in report.regress_assertions if a.passed}
    assert "data_products" in passed and "fmt_returns_text" not in passed
    assert report.build_error is None and seconds < FAST.deadline_s + 2.0


def test_hostile__loop_that_ignores_the_timer_is_killed_at_the_deadline(
    make_build: MakeBuild,
) -> None:
    report, seconds = timed(make_build(files=_looping_fmt(ignore_alarm=True)), limits=SHORT)
    assert report.regress < 1.0 and report.change < 1.0
    assert seconds < SHORT.deadline_s + 1.5


def _alive(token: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if token.encode() in handle.read():
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


def test_hostile__spawned_children_and_daemons_are_killed(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    token = f"4242.{os.getpid()}{time.monotonic_ns() % 100000}"
    build = make_build(
        "import os\n"
        "if os.fork() == 0:\n    os.setsid()\n"
        f"    if os.fork() == 0:\n        os.execvp('sleep', ['sleep', '{token}'])\n"
        "    os._exit(0)\n"
        f"if os.fork() == 0:\n    os.execvp('sleep', ['sleep', '{token}'])\n"
    )
    report, seconds = timed(build)
    assert verdicts(report) == verdicts(seed_grades["T4"])
    assert _alive(token) == [] and seconds < 3.0


def test_hostile__flooded_stdout_and_stderr_change_nothing(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    build = make_build(
        "import sys\nsys.stdout.write('x' * (40 << 20))\nsys.stderr.write('y' * (40 << 20))\n"
    )
    report, seconds = timed(build)
    assert verdicts(report) == verdicts(seed_grades["T4"]) and seconds < 3.0


def test_hostile__flooded_result_pipe_cannot_pass(make_build: MakeBuild) -> None:
    build = make_build(
        "import os\nfor fd in range(3, 32):\n    try:\n"
        '        os.write(fd, b\'{"kind": "done"}\\n\' * (1 << 20))\n'
        "    except OSError:\n        pass\n"
    )
    report, seconds = timed(build)
    # a hang check, not a speed target: a flood must not hold the grader past its deadline
    # by much, but a loaded machine stretches every wall clock
    assert (report.change, report.regress) == (0.0, 0.0) and seconds < FAST.deadline_s * 10


def test_hostile__writes_outside_its_directory_are_refused(
    make_build: MakeBuild, tmp_path: Path, seed_grades: dict[str, GradeReport]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    fixed = dict(build_tree("reference"))["shopkit/money.py"]
    build = make_build()
    original = (build / "shopkit/money.py").read_text()
    hostile = make_build(
        f"refused = []\nfor path, text in (({str(outside / 'pwned.txt')!r}, 'x'),\n"
        f"        ({str(build / 'shopkit/money.py')!r}, {fixed!r})):\n"
        "    try:\n        open(path, 'w').write(text)\n"
        "    except OSError:\n        refused.append(path)\n"
    )
    report, _ = timed(hostile)
    assert report.landlock
    assert not (outside / "pwned.txt").exists()
    assert (build / "shopkit/money.py").read_text() == original
    assert verdicts(report) == verdicts(seed_grades["T4"])


def test_hostile__unbounded_memory_fails_the_import_quickly(make_build: MakeBuild) -> None:
    report, seconds = timed(make_build("hoard = bytearray(8 << 30)\n"))
    assert report.build_error and "MemoryError" in report.build_error
    assert (report.change, report.regress) == (0.0, 0.0) and seconds < 3.0


def test_hostile__symlinks_in_the_build_are_not_followed(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    build = make_build()
    (build / "zero").symlink_to("/dev/zero")
    (build / "etc").symlink_to("/etc")
    report, seconds = timed(build)
    assert verdicts(report) == verdicts(seed_grades["T4"]) and seconds < 3.0


def test_hostile__cannot_signal_the_supervisor_or_the_grader(
    make_build: MakeBuild, seed_grades: dict[str, GradeReport]
) -> None:
    token = f"4343.{os.getpid()}{time.monotonic_ns() % 100000}"
    build = make_build(
        "import os, signal\n"
        f"for pid in (os.getppid(), {os.getpid()}):\n"
        "    try:\n        os.kill(pid, 0)\n        raise SystemExit('signals escape')\n"
        # in another pid namespace (a container) the grader is not even visible
        "    except (PermissionError, ProcessLookupError):\n        pass\n"
        "try:\n    os.kill(os.getppid(), signal.SIGKILL)\nexcept OSError:\n    pass\n"
        f"if os.fork() == 0:\n    os.execvp('sleep', ['sleep', '{token}'])\n"
    )
    report, seconds = timed(build)
    assert verdicts(report) == verdicts(seed_grades["T4"])
    assert _alive(token) == [] and seconds < 3.0
