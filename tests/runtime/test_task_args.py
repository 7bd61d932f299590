"""Every documented -T value works under both `run` and `inspect eval`: `run` hands the task
function the text after `=`, `inspect eval` the value its CLI parses as YAML (a date, an int,
a bool, a list for `a,b`). Both must build the same samples, or fail with the same one line."""

from __future__ import annotations

import datetime
import importlib
import inspect
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task

from checkout_consent.core.contract import World
from checkout_consent.families import WORLDS
from checkout_consent.runtime.compat import (
    create_task,
    parse_task_args,
    prerequisite_error,
    registered_task,
)
from checkout_consent.runtime.meta import refuse_param, task_params
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.rows import rows

DOCS = [
    REPO_ROOT / "README.md",
    REPO_ROOT / "CONTRIBUTING.md",
    *sorted((REPO_ROOT / "checkout_consent").glob("*/README.md")),
    *sorted((REPO_ROOT / "docs").glob("*.md")),
]
PLACEHOLDERS = {"N", "...", "value"}


def _family_of(doc: Path, line: str) -> list[str]:
    names = [f.name for f in WORLDS]
    if doc.parent.name in names:
        return [doc.parent.name]
    return [n for n in names if re.search(rf"(checkout_consent/|run |show |\| `){n}\b", line)]


def documented() -> list[tuple[str, str]]:
    """(world, key=value) for every -T example in the README, CONTRIBUTING, the world
    READMEs and docs/, plus the examples each world's rows give (tests/<world>/rows.py)."""
    found: set[tuple[str, str]] = set()
    for doc in DOCS:
        for line in doc.read_text(encoding="utf-8").splitlines():
            for item in re.findall(r"-T ([a-z_]+=[^\s`'\"\])|]+)", line):
                if item.split("=", 1)[1] not in PLACEHOLDERS:
                    found.update((family, item) for family in _family_of(doc, line))
    found.update((w.name, item) for w in WORLDS for item in rows(w.name).params)
    return sorted(found)


def _build(world: World, args: dict[str, Any]) -> Any:
    make = getattr(importlib.import_module(f"checkout_consent.{world.name}.task"), world.name)
    try:
        task: Task = make(**args)
    except prerequisite_error() as error:
        return f"refused: {error}"
    return [(s.id, s.input, s.metadata) for s in task.dataset]


def test_documented__the_docs_give_examples_for_every_family() -> None:
    found = documented()
    for world in WORLDS:
        keys = {item.split("=")[0] for family, item in found if family == world.name}
        assert keys >= set(task_params(world)) - {"scenario"}, (world.name, keys)
    assert ("grocery", "scored_on=2026-10-01") in found  # the grocery README's own


@pytest.mark.parametrize(("family", "item"), documented())
def test_task_args__a_documented_value_builds_the_same_samples_as_text_and_as_yaml(
    family: str, item: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    world = next(f for f in WORLDS if f.name == family)
    if item in rows(family).needs_a_step:  # the step's output is gitignored: never read it here
        monkeypatch.setattr(
            importlib.import_module(f"checkout_consent.{family}.dataset"),
            "data_dir",
            lambda: tmp_path,
        )
    key, _, text = item.partition("=")
    assert key in task_params(world), f"{world.name} takes no -T {key}"
    as_run = _build(world, {key: text})
    as_inspect = _build(world, parse_task_args([item]))
    assert as_run == as_inspect
    if item in rows(family).needs_a_step:
        assert isinstance(as_run, str) and "\n" not in as_run
    else:
        assert isinstance(as_run, list) and as_run, as_run


def test_task_args__the_documented_heldout_step_having_run_changes_no_outcome(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """After the grocery README's `checkout-consent grocery build heldout --seed N` (its
    git-ignored output present), the documented-values test still passes: it never reads
    what a documented step wrote."""
    from checkout_consent.grocery import dataset
    from checkout_consent.grocery.authoring import build

    data = tmp_path / "data"
    shutil.copytree(dataset.data_dir(), data, ignore=shutil.ignore_patterns("heldout"))
    for module in (dataset, build):
        monkeypatch.setattr(module, "data_dir", lambda: data)
    assert build.write_heldout(7) and dataset.heldout_ids()  # the step ran: its output is here
    (tmp_path / "empty").mkdir()
    test_task_args__a_documented_value_builds_the_same_samples_as_text_and_as_yaml(
        "grocery", "tasks=heldout", monkeypatch, tmp_path / "empty"
    )


def test_task_args__inspect_parses_a_date_a_number_and_a_list() -> None:
    parsed = parse_task_args(["scored_on=2026-10-01", "seeds=3", "task=T1,T3", "hint=true"])
    assert parsed == {
        "scored_on": datetime.date(2026, 10, 1),
        "seeds": 3,
        "task": ["T1", "T3"],
        "hint": True,
    }


@pytest.mark.parametrize("value", [{"a": 1}, 1.5e400, object()])
def test_task_args__a_value_of_no_text_form_is_refused_in_one_line(value: object) -> None:
    world = next(f for f in WORLDS if "scored_on" in task_params(f))
    result = _build(world, {"scored_on": value})
    assert isinstance(result, str) and result.startswith("refused: ") and "\n" not in result


@pytest.mark.parametrize("world", WORLDS, ids=lambda s: s.name)
def test_task_args__inspect_eval_refuses_a_key_the_world_does_not_take(world: World) -> None:
    """`inspect eval checkout_consent/<task> -T colour=blue`: Inspect hands the task every
    key it does not declare (it takes **other), and the task refuses it in the one line
    `run` prints, where Inspect alone would warn and run on."""
    import checkout_consent._registry  # noqa: F401  (registers every world's task)

    with pytest.raises(prerequisite_error()) as got:
        create_task(world.name, colour="blue")
    assert str(got.value) == refuse_param(world, "colour")
    assert "\n" not in str(got.value)


@pytest.mark.parametrize("world", WORLDS, ids=lambda s: s.name)
def test_task_args__the_task_declares_exactly_the_worlds_parameters(world: World) -> None:
    """What `checkout-consent list` and `run` accept is what the task function takes."""
    import checkout_consent._registry  # noqa: F401  (registers every world's task)

    fn = registered_task(world.name)
    named = {
        p.name
        for p in inspect.signature(fn).parameters.values()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    }
    assert named == set(task_params(world))


def test_task_args__a_bad_date_is_inspects_traceback_and_runs_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README: Inspect reads `-T scored_on=2026-02-31` (YAML's bad date) before any
    task code runs, so `inspect eval` shows its traceback; `run` refuses it in one line."""
    from checkout_consent.cli.main import main

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "`-T scored_on=2026-02-31` (YAML's bad date)" in readme
    with pytest.raises(ValueError, match="day is out of range"):
        parse_task_args(["scored_on=2026-02-31"])
    code = main(["run", "grocery", "--model", "control/grocery-reference",
                 "-T", "scored_on=2026-02-31"])  # fmt: skip
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "2026-02-31" in err, err
