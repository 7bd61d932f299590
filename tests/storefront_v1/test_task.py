"""`inspect eval checkout_consent/storefront_v1`: a task of its own beside storefront's. Its
samples name its own world (not storefront's, whose old `-T scenario=adversary_v1` alias is
refused), storefront's controls play its own policies there (the records are those of its
own controls offline), and storefront's `hint` is no parameter of it."""

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log

from checkout_consent import storefront
from checkout_consent.core.offline import play_and_grade
from checkout_consent.runtime.compat import prerequisite_error
from checkout_consent.storefront.task import storefront as storefront_task
from checkout_consent.storefront_v1 import WORLD
from checkout_consent.storefront_v1.task import storefront_v1

pytestmark = pytest.mark.inspect

V0 = storefront.WORLD
ORACLE = "control/storefront-oracle"


def _samples(task) -> list[tuple]:
    return [(s.id, s.input, s.metadata) for s in task.dataset]


def _scores(log) -> list[tuple[dict, object]]:
    assert log.status == "success", log.error
    return [
        (score.metadata["record"], score.value)
        for score in (next(iter(s.scores.values())) for s in log.samples)
    ]


def _offline(world, seed: str) -> dict:
    """The record of the world's own oracle on that seed, played offline (no Inspect);
    provenance (where and how it ran) left out."""
    record = play_and_grade(world, world.dataset.task(seed), world.controls["oracle"])
    return {k: v for k, v in record.items() if k != "provenance"}


def _without_provenance(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "provenance"}


def test_storefront_v1__builds_samples_of_its_own_world_not_storefronts():
    own, v0 = storefront_v1(seeds="1,4"), storefront_task(seeds="1,4")
    assert own.name == "storefront_v1" and v0.name == "storefront"
    assert own.version == WORLD.version != V0.version == v0.version
    refs = [s.metadata["scenario"] for s in own.dataset]
    assert [(r["world"], r["scenario_id"], r["seed"]) for r in refs] == [
        ("storefront_v1", "adversary_v1", 1),
        ("storefront_v1", "adversary_v1", 4),
    ]
    assert [s.id for s in own.dataset] == [s.id for s in v0.dataset] == ["seed-1", "seed-4"]
    # the same seeds, another world: every sample differs
    assert all(a != b for a, b in zip(_samples(own), _samples(v0), strict=True))
    with pytest.raises(prerequisite_error(), match="checkout_consent/storefront_v1") as refused:
        storefront_task(seeds="1,4", scenario="adversary_v1")  # the old alias
    assert "\n" not in str(refused.value)


def test_storefront_v1__inspect_eval_gives_its_own_oracles_records(tmp_path):
    """storefront's control plays each world's own policy: under Inspect, the record of
    that world's control offline, in both worlds."""
    (own,) = inspect_eval(
        storefront_v1(seeds="0"), model=ORACLE, display="none", log_dir=str(tmp_path / "own")
    )
    (v0,) = inspect_eval(
        storefront_task(seeds="0"), model=ORACLE, display="none", log_dir=str(tmp_path / "v0")
    )
    ((record, _),) = _scores(own)
    assert _without_provenance(record) == _offline(WORLD, "0")
    assert record["world_version"] == WORLD.world_version and record["clean_run"]
    assert record["seed"] == 0 and record["cash_final"] > 0
    ((v0_record, _),) = _scores(v0)
    assert _without_provenance(v0_record) == _offline(V0, "0")
    assert v0_record["world_version"] == V0.world_version != record["world_version"]


def _cli(name: str, log_dir: Path, *args: str) -> list[tuple[dict, object]]:
    """`inspect eval` as a user types it: the installed script, outside the checkout."""
    out = subprocess.run(
        [
            str(Path(sys.executable).with_name("inspect")),
            "eval",
            f"checkout_consent/{name}",
            "--model",
            ORACLE,
            "-T",
            "seeds=0",
            *args,
            "--log-dir",
            str(log_dir),
            "--display",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=log_dir.parent,
    )
    assert out.returncode == 0, (out.stdout + out.stderr)[-2000:]
    (log,) = list_eval_logs(str(log_dir))
    return _scores(read_eval_log(log))


@pytest.mark.slow
def test_storefront_v1__the_inspect_eval_command_gives_its_own_oracles_records(tmp_path):
    """The command as written: the task by its registered name."""
    ((record, _),) = _cli("storefront_v1", tmp_path / "own")
    assert _without_provenance(record) == _offline(WORLD, "0")
    assert record["world_version"] == WORLD.world_version


def test_storefront_v1__refuses_storefronts_hint_in_one_line():
    storefront_task(seeds="0", hint=True)  # storefront's own parameter
    with pytest.raises(prerequisite_error(), match="storefront_v1 has no task parameter 'hint'"):
        storefront_v1(seeds="0", hint=True)
