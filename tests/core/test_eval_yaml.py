"""Each world's static metadata is its own `eval.yaml`, read once into `core.contract.Meta`
(the layout inspect_evals uses): it names the world and its task, carries the version
"N-X" whose N is the Task version and every record's world version, and counts the public
samples, and says (inspect_evals' `metadata`) which parts of the task run in a sandbox and
whether it needs the internet; each `-T` parameter is documented once, in the task's
docstring, and read there."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest
import yaml
from pydantic import ValidationError

from checkout_consent.core.contract import Meta
from checkout_consent.families import WORLDS
from checkout_consent.runtime.meta import (
    documented_params,
    parse_meta,
    task_doc,
    task_factory,
    task_params,
)
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
def test_eval_yaml__feeds_the_task_version_sandbox_and_public_sample_count(world) -> None:
    task = task_factory(world)()
    assert task.version == world.meta.number
    assert bool(world.meta.metadata.sandbox) == (task.sandbox is not None), (
        "eval.yaml's metadata.sandbox must name the parts that run in the task's sandbox"
    )
    assert world.meta.tasks[0].dataset_samples == len(world.dataset.tasks()) == len(task.dataset)


@pytest.mark.parametrize("world", WORLDS, ids=IDS)
def test_task_docstring__documents_every_parameter_of_the_task_once(world) -> None:
    factory = task_factory(world)
    signature = inspect.signature(factory)
    taken = [p for p, v in signature.parameters.items() if v.kind is not v.VAR_KEYWORD]
    assert list(task_params(world)) == taken, "document each -T parameter in the task's Args:"
    assert all(task_params(world).values())
    # read from the source, never imported: the imported task's own docstring
    assert inspect.cleandoc(task_doc(world.name) or "") == inspect.cleandoc(factory.__doc__ or "")


def test_task_params__list_and_a_refused_key_import_no_inspect() -> None:
    """`list` and the refusal of an unknown -T key read the docstring from the source."""
    script = (
        "import sys, contextlib, io\n"
        "from checkout_consent.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['list', 'grocery'])\n"
        "from checkout_consent.families import world_named\n"
        "from checkout_consent.runtime.meta import refuse_param\n"
        "assert 'parameters: ' in refuse_param(world_named('pizza'), 'nope')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'inspect_ai'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_task_doc__a_world_without_a_task_module_is_one_line() -> None:
    with pytest.raises(LookupError, match="nowhere has no task module"):
        task_doc("nowhere")


def test_task_params__reads_an_args_section_with_wrapped_lines() -> None:
    doc = """Play it.

    Args:
        seeds: seeds to play: a range
            or a list
        hint (bool): coach the agent

    Returns:
        the task
    """
    assert documented_params(inspect.cleandoc(doc)) == {
        "seeds": "seeds to play: a range or a list",
        "hint": "coach the agent",
    }
    assert documented_params(None) == {} and documented_params("no args here") == {}


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


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("requires_internet: false", 'requires_internet: "no"', "metadata.requires_internet: "),
        ("sandbox: []", "sandbox: [agent]", "metadata.sandbox.0: Input should be 'solver' or"),
        ("metadata:", "extras:", "metadata: Field required"),
    ],
)
def test_meta__a_wrong_metadata_type_is_one_line_naming_the_field(old, new, line) -> None:
    text = (REPO_ROOT / "tests" / "scratch" / "coinjar" / "eval.yaml").read_text("utf-8")
    assert parse_meta(text, "coinjar/eval.yaml").metadata.requires_internet is False
    with pytest.raises(ValueError) as refused:
        parse_meta(text.replace(old, new, 1), "coinjar/eval.yaml")
    assert str(refused.value).startswith(f"coinjar/eval.yaml: {line}")
    assert "\n" not in str(refused.value)
