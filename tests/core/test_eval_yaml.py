"""Each world's static metadata is its own `eval.yaml`, read once into `core.family.Meta`
(the layout inspect_evals uses): it names the world and its task, carries the version
"N-X" whose N is the Task version and every record's world version, and counts the public
samples; each `-T` parameter is documented once, in the task's docstring, and read there."""

from __future__ import annotations

import inspect

import pytest
import yaml
from pydantic import ValidationError

from checkout_consent.core.family import Meta, task_params
from checkout_consent.families import WORLDS
from checkout_consent.runtime.provenance import REPO_ROOT

IDS = [w.name for w in WORLDS]


@pytest.mark.parametrize("world", WORLDS, ids=IDS)
def test_eval_yaml__every_world_folder_has_one_naming_its_task(world) -> None:
    path = REPO_ROOT / "checkout_consent" / world.name / "eval.yaml"
    meta = Meta.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert meta == world.meta and meta.name == world.name == path.parent.name
    assert world.world_version == "-".join(
        x for x in (meta.family, meta.scenario, str(meta.number)) if x
    )


@pytest.mark.parametrize("world", WORLDS, ids=IDS)
def test_eval_yaml__feeds_the_task_version_and_counts_the_public_samples(world) -> None:
    task = world.task_factory()()
    assert task.version == world.meta.number
    assert world.meta.tasks[0].dataset_samples == len(world.dataset.tasks()) == len(task.dataset)


@pytest.mark.parametrize("world", WORLDS, ids=IDS)
def test_task_docstring__documents_every_parameter_of_the_task_once(world) -> None:
    factory = world.task_factory()
    signature = inspect.signature(factory)
    taken = [p for p, v in signature.parameters.items() if v.kind is not v.VAR_KEYWORD]
    assert list(world.task_params) == taken, "document each -T parameter in the task's Args:"
    assert all(world.task_params.values())


def test_task_params__reads_an_args_section_with_wrapped_lines() -> None:
    doc = """Play it.

    Args:
        seeds: seeds to play: a range
            or a list
        hint (bool): coach the agent

    Returns:
        the task
    """
    assert task_params(inspect.cleandoc(doc)) == {
        "seeds": "seeds to play: a range or a list",
        "hint": "coach the agent",
    }
    assert task_params(None) == {} and task_params("no args here") == {}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"version": "6"}, "version"),
        ({"version": "0-A"}, "version"),
        ({"colour": "blue"}, "colour"),
        ({"tasks": []}, "tasks"),
        ({"tasks": [{"name": "Bad Name", "dataset_samples": 1}]}, "name"),
    ],
)
def test_meta__a_bad_eval_yaml_is_refused_naming_the_field(change, field) -> None:
    good = WORLDS[0].meta.model_dump(mode="json")
    with pytest.raises(ValidationError, match=field):
        Meta.model_validate({**good, **change})
