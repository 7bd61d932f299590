"""Running one command on a file tree, as the agent's run tools do."""

from __future__ import annotations

import pytest

from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.sandbox.execution import run_command
from checkout_consent.shopkit.sandbox.sandbox import Limits

QUICK = Limits(deadline_s=1.5, probe_s=1.5, file_mib=1)
SEED = dict(build_tree("seed"))


def python(code: str) -> dict[str, object]:
    return run_command(SEED, {"mode": "python", "code": code}, QUICK)


def test_run_command__cli_output_and_exit_code_are_the_builds() -> None:
    ok = run_command(SEED, {"mode": "cli", "argv": ["total", "O4"]}, QUICK)
    bad = run_command(SEED, {"mode": "cli", "argv": ["total", "O9"]}, QUICK)
    assert ok["exit_code"] == 0 and str(ok["output"]).startswith("$")
    assert bad["exit_code"] != 0 and "O9" in str(bad["output"])


@pytest.mark.parametrize(
    ("code", "exit_code"),
    [
        ("print('hi')", 0),
        ("raise ValueError('boom')", 1),
        ("import sys\nsys.exit(4)", 4),
        ("import os\nos._exit(3)", 3),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", -9),
        ("while True:\n    pass", None),
    ],
)
def test_run_command__reports_how_the_snippet_ended(code: str, exit_code: int | None) -> None:
    assert python(code)["exit_code"] == exit_code


def test_run_command__output_is_in_order_and_capped() -> None:
    shown = python("import sys\nprint('first')\nsys.stderr.write('second\\n')\nprint('x' * 50000)")
    text = str(shown["output"])
    assert text.startswith("first\nsecond\n") and len(text) == 20_000


def test_run_command__a_snippet_cannot_write_outside_its_build(tmp_path) -> None:
    target = tmp_path / "escaped.txt"
    shown = python(f"open({str(target)!r}, 'w').write('x')")
    # the directory is not there at all in the run's view of the machine
    assert shown["exit_code"] == 1 and "FileNotFoundError" in str(shown["output"])
    assert not target.exists()


def counting_launches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the sandbox launches run_command makes from here on, with a fresh memo."""
    from checkout_consent.shopkit.sandbox import execution

    launches: list[int] = []
    real = execution.run

    def run(*args: object, **kwargs: object) -> object:
        launches.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(execution, "run", run)
    monkeypatch.setattr(execution, "RESULTS", execution.Results())
    return launches


def test_run_command__the_same_run_again_is_handed_back_without_a_launch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    launches = counting_launches(monkeypatch)
    first = python("print('once')")
    again = python("print('once')")
    assert first == again == {"exit_code": 0, "output": "once\n"} and len(launches) == 1
    again["output"] = "changed by a caller"
    assert python("print('once')")["output"] == "once\n" and len(launches) == 1
    edited = {**SEED, "shopkit/extra.py": "X = 1\n"}
    assert run_command(edited, {"mode": "python", "code": "print('once')"}, QUICK)["exit_code"] == 0
    python("print('twice')")
    run_command(SEED, {"mode": "python", "code": "print('once')"}, Limits(deadline_s=2.0))
    assert len(launches) == 4  # another tree, another command, other limits: each runs


def test_run_command__a_run_that_timed_out_is_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    launches = counting_launches(monkeypatch)
    assert python("while True:\n    pass")["exit_code"] is None
    assert python("while True:\n    pass")["exit_code"] is None and len(launches) == 2


def test_run_command__output_names_build_files_without_the_temporary_directory() -> None:
    shown = python("from shopkit import orders\norders.total(None)")
    assert shown["exit_code"] == 1 and 'File "shopkit/orders.py", line' in str(shown["output"])
    assert "shopkit-run-" not in str(shown["output"])
    where = python("import shopkit.orders as o\nprint(o.__file__)")
    assert where["output"] == "shopkit/orders.py\n"


def test_run_command__a_tree_that_cannot_be_written_is_one_line_not_a_traceback() -> None:
    for tree in ({**SEED, "bad.py": "\ud800"}, {**SEED, "../escape.py": "x"}):
        shown = run_command(tree, {"mode": "python", "code": "print(1)"}, QUICK)
        assert shown["exit_code"] == 1
        assert str(shown["output"]).startswith("the build could not be written: ")
        assert "\n" not in str(shown["output"])


def test_results__keep_at_most_their_size_dropping_the_least_recently_used() -> None:
    from checkout_consent.shopkit.sandbox.execution import Results

    kept = Results(size=2)
    kept.put("a", {"v": 1})
    kept.put("b", {"v": 2})
    assert kept.get("a") == {"v": 1}  # a is now the most recent
    kept.put("c", {"v": 3})
    assert kept.get("b") is None and kept.get("a") == {"v": 1} and kept.get("c") == {"v": 3}
    assert Results.key(["x"], {"mode": "python"}) != Results.key(["y"], {"mode": "python"})
    assert Results.key({"b": 1, "a": 2}) == Results.key({"a": 2, "b": 1})
