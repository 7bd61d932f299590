"""Every documented -T value works under both `run` and `inspect eval`: `run` hands the task
function the text after `=`, `inspect eval` the value its CLI parses as YAML (a date, an int,
a bool, a list for `a,b`). Both must build the same samples, or fail with the same one line."""

from __future__ import annotations

import datetime
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task

from checkout_consent.core.family import FamilySpec
from checkout_consent.families import FAMILIES, worlds_of
from checkout_consent.runtime.compat import parse_task_args, prerequisite_error
from checkout_consent.runtime.provenance import REPO_ROOT

DOCS = [
    REPO_ROOT / "README.md",
    REPO_ROOT / "CONTRIBUTING.md",
    *sorted((REPO_ROOT / "checkout_consent").glob("*/README.md")),
]
PLACEHOLDERS = {"N", "...", "value"}
# The examples each family's task_params text gives (the prose of `checkout-consent list`).
PARAM_EXAMPLES: dict[str, list[str]] = {
    "storefront": [
        "seeds=0-9",
        "seeds=1,4,7",
        "seeds=3",
        "hint=true",
        "hint=false",
        "turns_per_day=12",
        "scenario=adversary_v0",
    ],
    "pizza": [
        "split=public",
        "split=94721",
        "splits=1-3",
        "splits=4,7",
        "replies=false",
        "max_turns=5",
        "tasks=cold-pizza-1,allergen-2",
        "tasks=wrong_topping",
    ],
    "shopkit": ["task=T1", "task=T1,T3", "task=all", "brief=Fix the refund rounding.", "turns=40"],
    "grocery": ["tasks=public", "tasks=tight-week,normal-week", "scored_on=2026-10-15", "turns=40"],
}
# Documented values that need a step first (their docs say which): both ways must still
# give the same one-line refusal.
NEEDS_A_STEP = {("grocery", "tasks=heldout")}  # `checkout-consent grocery build heldout`


def _family_of(doc: Path, line: str) -> list[str]:
    names = [f.name for f in FAMILIES]
    if doc.parent.name in names:
        return [doc.parent.name]
    return [n for n in names if re.search(rf"(checkout_consent/|run |show |\| `){n}\b", line)]


def documented() -> list[tuple[str, str]]:
    """(family, key=value) for every -T example in the README, CONTRIBUTING and the family
    READMEs, plus each family's task_params examples."""
    found: set[tuple[str, str]] = set()
    for doc in DOCS:
        for line in doc.read_text(encoding="utf-8").splitlines():
            for item in re.findall(r"-T ([a-z_]+=[^\s`'\"\])|]+)", line):
                if item.split("=", 1)[1] not in PLACEHOLDERS:
                    found.update((family, item) for family in _family_of(doc, line))
    found.update((f, item) for f, items in PARAM_EXAMPLES.items() for item in items)
    return sorted(found)


def _build(spec: FamilySpec, args: dict[str, Any]) -> Any:
    make = getattr(importlib.import_module(f"checkout_consent.{spec.name}.task"), spec.task)
    try:
        task: Task = make(**args)
    except prerequisite_error() as error:
        return f"refused: {error}"
    return [(s.id, s.input, s.metadata) for s in task.dataset]


def test_documented__the_docs_give_examples_for_every_family() -> None:
    found = documented()
    for spec in FAMILIES:
        keys = {item.split("=")[0] for family, item in found if family == spec.name}
        assert keys >= set(spec.task_params) - {"scenario"}, (spec.name, keys)
    assert ("grocery", "scored_on=2026-10-01") in found  # the grocery README's own


@pytest.mark.parametrize(("family", "item"), documented())
def test_task_args__a_documented_value_builds_the_same_samples_as_text_and_as_yaml(
    family: str, item: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = next(f for f in FAMILIES if f.name == family)
    if (family, item) in NEEDS_A_STEP:  # the step's output is gitignored: never read it here
        monkeypatch.setattr(
            importlib.import_module(f"checkout_consent.{family}.dataset"),
            "data_dir",
            lambda: tmp_path,
        )
    key, _, text = item.partition("=")
    assert any(key in s.task_params for s in worlds_of(spec.name))
    as_run = _build(spec, {key: text})
    as_inspect = _build(spec, parse_task_args([item]))
    assert as_run == as_inspect
    if (family, item) in NEEDS_A_STEP:
        assert isinstance(as_run, str) and "\n" not in as_run
    else:
        assert isinstance(as_run, list) and as_run, as_run


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
    spec = next(f for f in FAMILIES if "scored_on" in f.task_params)
    result = _build(spec, {"scored_on": value})
    assert isinstance(result, str) and result.startswith("refused: ") and "\n" not in result
