"""A person's turn in a real browser (Debian's Chromium through Playwright): a reload never
sends a form twice, a call added to the turn can be removed and is then not sent, a turn
that runs out of time sends what it holds and the page says so, the page never ends on
the browser's "site can't be reached", and a pizza task played to the end through the page
shows its score and log path and is accepted by `submit validate` (partial)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import needs_chromium
from tests.runtime.human.play import (
    HumanRun,
    add_call,
    browser_page,
    control_run,
    human_run,
    next_turn,
    on_turn,
    play,
    records_of,
)

pytestmark = [pytest.mark.inspect, pytest.mark.slow, needs_chromium]

PIZZA = Path(__file__).parents[3] / "leaderboard" / "submissions" / "pizza"
QUEUED = "#qh + ol > li"
GONE_START = "The page's server has closed: the run is over."


def _journal(path: Path) -> list[list[list[Any]]]:
    return [json.loads(line)["calls"] for line in path.read_text().splitlines()]


def _shots(tmp_path: Path) -> Path:
    """Where screenshots go: $HUMAN_PAGE_SHOTS (to look at them) or the test's tmp folder."""
    shots = Path(os.environ.get("HUMAN_PAGE_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _gone(run: HumanRun, page: Any) -> None:
    """The run's process has exited and the page still shows a page of its own."""
    assert run.process.wait(timeout=300) == 0
    page.locator("#gone", has_text=GONE_START).wait_for(timeout=30_000)
    assert page.url == run.url  # not the browser's error page


def test_human_page__a_reload_queues_nothing_and_a_removed_call_is_not_sent(
    tmp_path: Path,
) -> None:
    """Pizza's remake, added to turn 3, reloaded, added again and that copy removed: the
    turn sends one remake (two would be pizza's duplicate_side_effect breach), and the run's
    record is the control's own."""
    moves, expected = control_run("pizza", tmp_path / "control")
    journal = tmp_path / "journal.jsonl"
    (_, [(tool, args)]) = moves[2]
    assert tool == "remake_order"
    with human_run("pizza", tmp_path, journal=journal) as run, browser_page() as page:
        assert play(run, page, moves, until=2) == 2
        turn = next_turn(run, ["wrong-topping-1", 1, 2])
        assert turn is not None
        on_turn(page, turn)
        add_call(page, tool, args)
        for _ in range(2):
            page.reload()
            page.locator("#qh").wait_for()
        assert page.locator(QUEUED).count() == 1
        add_call(page, tool, args)  # a second remake, by mistake
        assert page.locator(QUEUED).count() == 2
        page.get_by_role("button", name="Remove call 2").click()
        page.wait_for_load_state()
        assert page.locator(QUEUED).count() == 1
        page.get_by_role("button", name="Send the 1 call(s) now").click()
        page.wait_for_load_state()
        assert play(run, page, moves[3:]) == len(moves) - 3
        assert run.process.wait(timeout=600) == 0
    assert _journal(journal)[2] == [[tool, args]]
    assert records_of(run.log_dir) == expected


def test_human_page__a_timed_out_turn_sends_its_queued_call_and_the_page_says_so(
    tmp_path: Path,
) -> None:
    """`-M turn_seconds=30`: a call added to turn 1 and never sent is sent when the time
    runs out, the next page says so, and after a stop the page stays a page of its own."""
    moves, _ = control_run("pizza", tmp_path / "control")
    journal = tmp_path / "journal.jsonl"
    (_, [(tool, args)]) = moves[0]
    budget = ("-M", "turn_seconds=30")
    with human_run("pizza", tmp_path, journal=journal, extra=budget) as run:
        with browser_page() as page:
            assert next_turn(run, None) == ["wrong-topping-1", 1, 1]
            page.goto(run.url)
            add_call(page, tool, args)
            said = "Turn 1 ran out of time after 30 s: the 1 call(s) added to it were sent"
            page.get_by_text(said).wait_for(timeout=120_000)  # the page went on by itself
            on_turn(page, ["wrong-topping-1", 1, 2])
            page.screenshot(path=str(_shots(tmp_path) / "timed-out.png"), full_page=True)
            page.get_by_role("button", name="Stop the run").click()
            page.locator("#state", has_text="The run is stopped").wait_for()
            page.locator("#ended", has_text="its log:").wait_for(timeout=120_000)
            _gone(run, page)
    assert _journal(journal) == [[[tool, args]]]


def _card(folder: Path, seconds: float) -> None:
    """A person's card: the reference control's, as a human's run, stating its time."""
    card = yaml.safe_load((PIZZA / "control-pizza-reference" / "submission.yaml").read_text())
    for key in ("tokens", "cost"):
        card.pop(key)
    card |= {
        "submission_id": folder.name,
        "kind": "human",
        "model": {"id": "human/web", "provider": "human"},
        "agent": {"harness": "a person at the human/web page", "tools": card["agent"]["tools"]},
        "wall_time_seconds": seconds,
    }
    (folder / "submission.yaml").write_text(yaml.safe_dump(card, sort_keys=False))


def test_human_page__a_pizza_task_played_to_the_end_shows_its_score_and_is_accepted(
    tmp_path: Path,
) -> None:
    """The documented command (`-T tasks=wrong-topping-1`), every move made on the page;
    the end page shows the score and the log's path, and the run with a human card that
    states the time the end page gives is accepted by `submit validate` as partial."""
    moves, expected = control_run("pizza", tmp_path / "control")
    shots = _shots(tmp_path)
    with human_run("pizza", tmp_path) as run, browser_page(1400) as page:
        assert play(run, page, moves, until=len(moves) - 1) == len(moves) - 1
        on_turn(page, next_turn(run, None) or [])
        page.screenshot(path=str(shots / "results.png"), full_page=True)
        assert play(run, page, moves[-1:]) == 1
        ended = page.locator("#ended", has_text="its log:")
        ended.wait_for(timeout=120_000)
        text = ended.inner_text()
        page.screenshot(path=str(shots / "end.png"), full_page=True)
        _gone(run, page)
    print(f"screenshots: {shots}")
    assert "Sample wrong-topping-1 epoch 1: " in text and "score" in text
    (log,) = run.log_dir.glob("*.eval")
    assert str(log.resolve()) in text or str(log) in text
    assert records_of(run.log_dir) == expected
    played = re.search(r"played ([0-9.]+) s", text)
    assert played is not None, text
    folder = tmp_path / "board" / "pizza" / "human-pizza-web"
    (folder / "logs").mkdir(parents=True)
    (folder / "logs" / "run.eval").write_bytes(log.read_bytes())
    _card(folder, float(played.group(1)))
    argv = [sys.executable, "-m", "checkout_consent.cli", "submit", "validate", str(folder)]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("ACCEPTED (partial: 1 of "), out.stdout
    assert "played " in out.stdout and "tokens" not in out.stdout
