"""The command line as a user meets it: `score --cart` (exit codes and output), `list`,
`show`, the `grocery build` verb, and `run`/`sanity` through Inspect. One test runs the
command in a real subprocess (the entry point, a fresh interpreter); the rest call the same
`main` in this process (its exit code and both streams, as the process would give them)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.cli.main import main
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.grocery.helpers import reference_lines, reference_submission, submission


def cli(
    *args: str, cwd: Path | None = None, fresh: bool = False
) -> subprocess.CompletedProcess[str]:
    """The CLI of this checkout: its `main` here, or (`fresh`) a new interpreter with
    REPO_ROOT first on the path, whatever the cwd."""
    if fresh:
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        return subprocess.run(
            [sys.executable, "-m", "checkout_consent.cli", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.chdir(cwd or Path.cwd()),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's own refusals
            code = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def score_cart(
    tmp_path: Path, data: Any, task: str = "normal-week", fresh: bool = False
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "cart.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = cli("score", "grocery", "--task", task, "--cart", str(path), cwd=tmp_path, fresh=fresh)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # stores nothing
    return out


def test_score_cart__prints_the_profile_as_json(tmp_path: Path) -> None:
    out = score_cart(tmp_path, reference_submission("normal-week"), fresh=True)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["score"] == 1.0 and set(record["profile"]) >= {"completeness_accuracy"}


def test_score_cart__a_hard_fail_exits_0_with_the_flag_set(tmp_path: Path) -> None:
    out = score_cart(tmp_path, submission("normal-week", [], order_attempted=True))
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["hard_fails"]["order_attempted"] is True and record["score"] == 0.0


@pytest.mark.parametrize(
    "field", ["task", "model", "tools", "store_snapshot", "seed", "time_s", "token_cost"]
)
def test_score_cart__a_missing_field_exits_2_with_one_line(tmp_path: Path, field: str) -> None:
    data = reference_submission("normal-week")
    data.pop(field) if field == "task" else data["agent_card"].pop(field)
    out = score_cart(tmp_path, data)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and field in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        '"x"',
        json.dumps({"task": "tight-week", "cart": {"lines": []}, "agent_card": {}}),
    ],
)
def test_score_cart__hostile_files_exit_2_with_one_line(tmp_path: Path, text: str) -> None:
    out = score_cart(tmp_path, text)
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1


def test_score_cart__refused_for_a_family_without_submissions_and_beside_trace(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cart.json"
    path.write_text("{}", encoding="utf-8")
    out = cli("score", "pizza", "--task", "wrong-topping-1", "--cart", str(path))
    assert out.returncode == 2 and "takes no --cart" in out.stderr
    both = cli(
        "score", "grocery", "--task", "normal-week", "--cart", str(path), "--trace", str(path)
    )
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_score_trace__grades_a_saved_tool_log(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps([{"tool": "submit_cart", "args": {}}]), encoding="utf-8")
    out = cli("score", "grocery", "--task", "normal-week", "--trace", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["profile"]["completeness_accuracy"] == 0.0


def test_list_and_show__name_the_tasks_and_print_a_brief() -> None:
    listed = cli("list", "grocery")
    assert listed.returncode == 0 and "promo-decoy-week" in listed.stdout
    assert "control/grocery-reference" in listed.stdout and "scored_on" in listed.stdout
    shown = cli("show", "grocery", "normal-week")
    assert shown.returncode == 0 and "Budget:" in shown.stdout and "scorer side" in shown.stdout
    missing = cli("show", "grocery", "no-such-week")
    assert missing.returncode == 2 and "no grocery task" in missing.stderr


def test_build__heldout_without_a_seed_is_a_clear_error(monkeypatch: Any) -> None:
    monkeypatch.delenv("GROCERY_HELDOUT_SEED", raising=False)
    out = cli("grocery", "build", "heldout")
    assert out.returncode == 2 and "needs --seed" in out.stderr


@pytest.mark.slow
@pytest.mark.inspect
def test_run_and_sanity__the_ladder_holds_through_inspect(tmp_path: Path) -> None:
    sane = cli("--log-dir", str(tmp_path), "sanity", "grocery")
    assert sane.returncode == 0 and "sanity grocery: 0 problem(s)" in sane.stderr
    run = cli("--log-dir", str(tmp_path), "run", "grocery", "--json")
    assert run.returncode == 0, run.stderr[-2000:]
    (entry, *_), controls = json.loads(run.stdout), {}
    for e in json.loads(run.stdout):
        controls[e["model"]] = e["records"]
    assert {r["score"] for r in controls["control/grocery-reference"]} == {1.0}
    assert entry["family"] == "grocery" and len(controls) == 4


EXAMPLE = REPO_ROOT / "checkout_consent" / "grocery" / "examples" / "normal-week-cart.json"


def test_score_cart__the_committed_example_is_the_reference_cart_and_scores_1(
    tmp_path: Path,
) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    lines = [(ln["sku"], ln["quantity"], ln["dish"]) for ln in data["cart"]["lines"]]
    assert lines == reference_lines("normal-week")
    out = cli("score", "grocery", "--task", "normal-week", "--cart", str(EXAMPLE), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["score"] == 1.0


def test_score_cart__the_readme_documents_every_field_of_the_example() -> None:
    readme = (REPO_ROOT / "checkout_consent" / "grocery" / "README.md").read_text()
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    fields = [
        *(k for k, v in data.items() if not isinstance(v, dict)),
        *(f"cart.{k}" for k in data["cart"]),
        "agent_card.model",
    ]
    assert all(f"`{f}`" in readme for f in fields), fields
    assert "examples/normal-week-cart.json" in readme


def test_score_cart__every_missing_field_is_named_at_once(tmp_path: Path) -> None:
    data = reference_submission("normal-week")
    for field in ("model", "seed", "time_s"):
        data["agent_card"].pop(field)
    data["cart"]["lines"][0].pop("quantity")
    out = score_cart(tmp_path, data)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    for field in (
        "agent_card.model",
        "agent_card.seed",
        "agent_card.time_s",
        "cart.lines.0.quantity",
    ):
        assert field in out.stderr, out.stderr
