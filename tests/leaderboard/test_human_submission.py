"""A person's run is a submission like any other: a `human/web` run of shopkit's public set
(answered here, in the test, with the noop control's moves through the provider's desk: a
fixture that never leaves the temporary folder), with a `kind: human` card, is accepted by
`submit validate`'s re-grading, and its board row says `human` with the time played."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from checkout_consent.leaderboard.board import entry, views
from checkout_consent.leaderboard.render import cells
from checkout_consent.leaderboard.validate import validate
from checkout_consent.runtime.human import provider
from checkout_consent.runtime.human.desk import Answer
from checkout_consent.runtime.meta import task_factory
from tests.leaderboard.helpers import SMALL, copy_example

pytestmark = [pytest.mark.inspect, pytest.mark.slow]


def _moves(log: Path) -> dict[str, list[Answer]]:
    from inspect_ai.log import read_eval_log

    out: dict[str, list[Answer]] = {}
    for sample in read_eval_log(str(log)).samples or []:
        out[str(sample.id)] = [
            Answer(
                m.text if not m.tool_calls else "",
                tuple((c.function, dict(c.arguments)) for c in m.tool_calls or []),
            )
            for m in sample.messages
            if m.role == "assistant"
        ]
    return out


def _answer(moves: dict[str, list[Answer]], done: threading.Event) -> None:
    """Answer every turn the desk opens with the control's move for it."""
    while not done.is_set():
        desk = provider._SERVERS.get(0, (None,))[0]
        turn = desk.turn if desk is not None else None
        if turn is not None:
            desk.answer(turn.token, moves[turn.sample][turn.number - 1])
        done.wait(0.01)


def test_submit_validate__a_human_runs_submission_is_regraded_and_shown_as_human(
    tmp_path: Path,
) -> None:
    from inspect_ai import eval as inspect_eval

    from checkout_consent.families import world_named

    control = copy_example(tmp_path / "control", *SMALL)
    moves = _moves(control / "logs" / "run.eval")
    world = world_named("shopkit")
    done = threading.Event()
    answering = threading.Thread(target=_answer, args=(moves, done), daemon=True)
    answering.start()
    try:
        (log,) = inspect_eval(
            task_factory(world)(**dict(world.dataset.public_args)),
            model="human/web",
            model_args={"port": 0, "journal": str(tmp_path / "journal.jsonl")},
            log_dir=str(tmp_path / "logs"),
            display="none",
            max_samples=1,
        )
    finally:
        done.set()
        answering.join(timeout=10)
    assert log.status == "success"
    folder = tmp_path / "board" / "shopkit" / "human-shopkit-web"
    (folder / "logs").mkdir(parents=True)
    shutil.copyfile(log.location, folder / "logs" / "run.eval")
    card: dict[str, Any] = yaml.safe_load((control / "submission.yaml").read_text())
    card |= {
        "submission_id": "human-shopkit-web",
        "kind": "human",
        "model": {"id": "human/web", "provider": "human"},
        "wall_time_seconds": 754.0,
    }
    (folder / "submission.yaml").write_text(yaml.safe_dump(card, sort_keys=False))
    copied = validate(folder, cassettes=False)  # tokens and a cost copied from a model's card
    assert any("a human card states its time" in r for r in copied.refusals), copied.refusals
    for key in ("tokens", "cost"):
        del card[key]
    (folder / "submission.yaml").write_text(yaml.safe_dump(card, sort_keys=False))
    wrong = validate(folder, cassettes=False)  # 754 s stated: the logs say the play's time
    played = wrong.played_s
    assert wrong.refusals == [
        f"card wall_time_seconds 754.0, the logs' play time is {played} s (the time each "
        "turn was open, a resumed run's earlier turns included)"
    ]
    card["wall_time_seconds"] = played
    (folder / "submission.yaml").write_text(yaml.safe_dump(card, sort_keys=False))
    verdict = validate(folder, cassettes=False)
    assert verdict.refusals == [] and verdict.card is not None
    assert "tokens" not in verdict.render() and f"played {played} s" in verdict.render()
    (view,) = views("shopkit", [entry(verdict, Path("submissions/shopkit/human-shopkit-web"))])
    row = cells(view.rows[0])
    assert row[0] == "human" and row[2].startswith("human: human/web, ")
