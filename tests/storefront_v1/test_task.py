"""`inspect eval checkout_consent/storefront_v1` and its alias, `checkout_consent/storefront
-T scenario=adversary_v1`: the same samples and the same records."""

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log

from checkout_consent.storefront.task import storefront
from checkout_consent.storefront_v1 import WORLD
from checkout_consent.storefront_v1.task import storefront_v1

pytestmark = pytest.mark.inspect

ALIAS = {"scenario": "adversary_v1"}
ORACLE = "control/storefront-oracle"


def _samples(task) -> list[tuple]:
    return [(s.id, s.input, s.metadata) for s in task.dataset]


def _scores(log) -> list[tuple[dict, object]]:
    assert log.status == "success", log.error
    return [
        (score.metadata["record"], score.value)
        for score in (next(iter(s.scores.values())) for s in log.samples)
    ]


def test_storefront_v1__builds_the_samples_its_alias_builds():
    own, alias = storefront_v1(seeds="1,4"), storefront(seeds="1,4", **ALIAS)
    assert _samples(own) == _samples(alias)
    assert [s.metadata["scenario"]["scenario_id"] for s in own.dataset] == ["adversary_v1"] * 2
    assert own.version == alias.version == WORLD.version
    assert own.name == "storefront_v1" and alias.name == "storefront"


def test_storefront_v1__inspect_eval_gives_the_records_of_the_alias(tmp_path):
    (own,) = inspect_eval(
        storefront_v1(seeds="0"), model=ORACLE, display="none", log_dir=str(tmp_path / "own")
    )
    (alias,) = inspect_eval(
        storefront(seeds="0", **ALIAS),
        model=ORACLE,
        display="none",
        log_dir=str(tmp_path / "alias"),
    )
    assert _scores(own) == _scores(alias)
    ((record, _),) = _scores(own)
    assert record["world_version"] == WORLD.world_version and record["clean_run"]
    assert record["seed"] == 0 and record["cash_final"] > 0


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
def test_storefront_v1__the_inspect_eval_command_gives_the_records_of_the_alias(tmp_path):
    """The commands as written: the task by its registered name, and the alias."""
    own = _cli("storefront_v1", tmp_path / "own")
    assert own == _cli("storefront", tmp_path / "alias", "-T", "scenario=adversary_v1")
    assert own[0][0]["world_version"] == WORLD.world_version


def test_storefront_v1__alias_still_refuses_the_hint_of_v0():
    with pytest.raises(Exception, match="hint coaches adversary_v0"):
        storefront(seeds="0", hint=True, **ALIAS)
