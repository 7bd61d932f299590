"""Each world's README carries inspect_evals' generated Usage and Parameters blocks, written
by `python -m checkout_consent.cli.readme` from the world's `@task` (its signature and its
docstring's `Args:`), and a docstring changed without regenerating fails here."""

from __future__ import annotations

import inspect

import pytest

from checkout_consent.cli.readme import PARAMETERS, USAGE, parameters, write_world_readmes
from checkout_consent.families import WORLDS, world_named
from checkout_consent.runtime import meta
from checkout_consent.runtime.meta import task_factory, task_params
from checkout_consent.runtime.provenance import REPO_ROOT


@pytest.mark.parametrize("w", WORLDS, ids=[w.name for w in WORLDS])
def test_world_readme__usage_and_parameters_blocks_are_current(w) -> None:
    text = (REPO_ROOT / "checkout_consent" / w.name / "README.md").read_text(encoding="utf-8")
    for begin, end in (USAGE, PARAMETERS):
        assert text.count(begin) == text.count(end) == 1, f"{w.name}'s README lacks {begin}"
    assert write_world_readmes([w], check=True), "run `python -m checkout_consent.cli.readme`"


def test_world_readme__parameters_list_each_task_argument_with_type_and_default() -> None:
    pizza = world_named("pizza")
    block = parameters(pizza)
    assert block.startswith("## Parameters\n\n### `pizza`\n\n")
    taken = inspect.signature(task_factory(pizza)).parameters
    for name, text in task_params(pizza).items():
        assert f"- `{name}` (`{taken[name].annotation}`): {text}" in block
    # the signature's default is added where the docstring names none
    assert "e.g. 94721 (default: `'public'`)" in block
    assert "(default 16)\n" in f"{block}\n" and "(default: `16`)" not in block


def test_world_readme__a_docstring_changed_without_regenerating_fails(monkeypatch) -> None:
    pizza = world_named("pizza")
    factory = task_factory(pizza)
    assert write_world_readmes([pizza], check=True)
    doc = factory.__doc__.replace("the agent's turn budget", "the agent's turn allowance")
    monkeypatch.setattr(meta, "task_doc", lambda name: doc if name == "pizza" else None)
    assert "the agent's turn allowance" in parameters(pizza)
    assert not write_world_readmes([pizza], check=True)
