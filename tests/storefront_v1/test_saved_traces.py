"""A saved adversary_v1 trace is graded by its own world: `score storefront --task
adversary_v1:N --trace F` (not v0's world, which has no `ask_owner`), a trace that stops
early (a plain prefix of the oracle's own run) as the partial run it is, with its day
count, and a forged context trim still refused."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from checkout_consent import storefront
from checkout_consent.cli.main import main
from checkout_consent.core.offline import grade_saved, play
from checkout_consent.storefront_v1 import WORLD

TASK = "adversary_v1:0"
TRIM = WORLD.episode.trim_tool


@functools.cache
def oracle() -> tuple[dict[str, Any], ...]:
    """The oracle's own run of seed 0, as a saved trace (every call with what it saw)."""
    played = play(WORLD, WORLD.dataset.task(TASK), WORLD.controls["oracle"])
    return tuple(c.model_dump() for c in played.calls)


def _grade(calls: list[dict[str, Any]]) -> dict[str, Any]:
    return grade_saved(WORLD, WORLD.dataset.task(TASK), calls)


def _days(calls: list[dict[str, Any]]) -> tuple[int, int]:
    """Of a prefix of the oracle's run: the days it ended itself, and the days it made a
    call on (the oracle acts every day it reaches)."""
    ended = sum(1 for c in calls if c["tool"] == WORLD.episode.close_tool)
    return ended, ended + (calls[-1]["tool"] != WORLD.episode.close_tool)


def test_a_v1_trace_is_graded_by_its_own_world__through_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "trace.json"
    saved.write_text(json.dumps(list(oracle())), encoding="utf-8")
    assert main(["score", "storefront", "--task", TASK, "--trace", str(saved)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == _grade(list(oracle()))
    assert record["world_version"] == WORLD.world_version and record["seed"] == 0


def test_a_v1_trace_is_graded_by_its_own_world__the_task_form_is_documented(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "score storefront --task adversary_v1:3" in " ".join(capsys.readouterr().out.split())
    readme = Path(storefront.__file__).parent / "README.md"
    assert "score storefront --task adversary_v1:3 --trace" in readme.read_text(encoding="utf-8")


@pytest.mark.parametrize("stop", [10, 200, 324, 330])
def test_a_v1_prefix_of_the_oracles_run__is_graded_as_the_partial_run_with_its_day_count(
    stop: int,
) -> None:
    full = list(oracle())
    assert [i for i, c in enumerate(full) if c["tool"] == TRIM] == [325]  # the seed's one trim
    prefix = full[:stop]
    record = _grade(prefix)
    days, (ended, reached) = WORLD.initial(WORLD.dataset.task(TASK)).setup.days, _days(prefix)
    assert ended < days
    assert record["silent_days"] == days - reached  # the days after the trace stopped
    assert record["auto_ended_days"] == days - ended  # every day it did not end, ended for it
    assert record["context_trimmed_days"] == ([] if stop <= 325 else [17])
    assert record["cash_final"] != _grade(full)["cash_final"]


def test_a_v1_prefix_of_the_oracles_run__with_a_forged_trim_is_still_refused() -> None:
    full = list(oracle())
    trim = {"tool": TRIM, "args": {}, "origin": "solver"}
    dropped = full[:325] + full[326:400]  # past the trim's day, without the trim
    early = [*full[:5], trim, *full[5:10]]  # a trim before the budget was spent
    at_stop = [*full[:15], trim, *full[15:20]]  # on the day the trace stops, too early
    for forged, why in (
        (dropped, "no trim"),
        (early, "before the budget was spent"),
        (at_stop, "before the budget was spent"),
    ):
        with pytest.raises(ValueError, match=why):
            _grade([{k: v for k, v in c.items() if k != "observation"} for c in forged])
