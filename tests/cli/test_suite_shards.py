"""A pure family's public set played in shards (`suite --shard K/N`, as on N machines), its
logs merged into one submission folder, validates as one submission; one shard alone is
refused as a partial set."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

import pytest
import yaml

from checkout_consent.cli.main import main
from checkout_consent.core.contract import World
from checkout_consent.families import WORLDS
from checkout_consent.leaderboard.expected import public_samples
from checkout_consent.leaderboard.validate import regrade, validate
from checkout_consent.runtime.pricing import eval_cost_usd, normalized_cost_usd
from checkout_consent.runtime.provenance import REPO_ROOT

pytestmark = [pytest.mark.slow, pytest.mark.inspect]


@functools.cache
def _world() -> World:
    """The pure world alone in its family (its control's suite plays it alone) with the
    smallest public set (found when a test asks: building the tasks takes seconds, not at
    collection, since the module is in the slow layer)."""
    return min(
        (f for f in WORLDS if f.pure and [w.family for w in WORLDS].count(f.family) == 1),
        key=lambda f: len(public_samples(f.name)),
    )


def _model() -> str:
    return f"control/{_world().family}-{_world().controls.reference}"


SHARDS = 2


def _shard(tmp: Path, k: int, capsys: pytest.CaptureFixture[str]) -> Path:
    """Play shard k and return the log its summary names."""
    logs = tmp / f"machine-{k}"
    args = ["--model", _model(), "--shard", f"{k}/{SHARDS}", "--display", "none", "--json"]
    assert main(["--log-dir", str(logs), "suite", *args]) == 0
    (row,) = json.loads(capsys.readouterr().out)["worlds"]
    return logs / row["log"]


def _submission(root: Path, logs: list[Path]) -> Path:
    """A submission folder holding `logs`, its card taken from a committed example of the
    family and set to this run (model, tokens and costs from the re-graded logs)."""
    example = sorted((REPO_ROOT / "leaderboard" / "submissions" / _world().name).iterdir())[0]
    folder = root / _world().name / "control-shards"
    (folder / "logs").mkdir(parents=True)
    for i, log in enumerate(logs, 1):
        shutil.copyfile(log, folder / "logs" / f"shard-{i}.eval")
    samples = [s for log in logs for s in regrade(log).samples]
    tokens = sum(s.input_tokens for s in samples), sum(s.output_tokens for s in samples)
    card = yaml.safe_load((example / "submission.yaml").read_text())
    card.update(
        submission_id=folder.name,
        kind="control",
        model={"id": _model(), "provider": "control"},
        tokens={"input": tokens[0], "output": tokens[1]},
        cost={
            "list_usd": eval_cost_usd(_model(), *tokens),
            "normalized_usd": normalized_cost_usd(*tokens),
        },
    )
    (folder / "submission.yaml").write_text(yaml.safe_dump(card, sort_keys=False))
    return folder


def test_suite_shards__merged_logs_validate_as_one_submission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [_shard(tmp_path, k, capsys) for k in range(1, SHARDS + 1)]
    merged = validate(_submission(tmp_path / "merged", logs))
    assert merged.refusals == [] and merged.ok
    assert len(merged.samples) == len(public_samples(_world().name))
    alone = validate(_submission(tmp_path / "alone", logs[:1]))  # part of the set
    played, total = len(regrade(logs[0]).samples), len(public_samples(_world().name))
    assert alone.ok and alone.partial == (played, total) and played < total
    twice = validate(_submission(tmp_path / "twice", [logs[0], logs[0]]))
    assert any("more than once" in r for r in twice.refusals)
