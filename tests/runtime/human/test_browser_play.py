"""The human provider in a real browser: headless Chromium fills the page's forms with a
control's moves, and the record of that run is byte-identical to the control's own; bad
input is refused on the page in one line and nothing is sent; a killed run resumes from its
journal; a stopped run ends cleanly. The one-world play is in the default run, the rest in
the slow layer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import needs_chromium
from tests.runtime.human.play import (
    WORLD_RUNS,
    browser_page,
    control_run,
    human_run,
    next_turn,
    play,
    records_of,
    samples_of,
)

pytestmark = [pytest.mark.inspect, needs_chromium]

UNLABELLED = """() => [...document.querySelectorAll('input:not([type=hidden]),textarea,select')]
  .filter(e => !e.labels || e.labels.length === 0).map(e => e.name)"""


def _refused_on_the_page(run, page) -> None:  # type: ignore[no-untyped-def]
    """A word in a number field: one line on the page, no call made, the turn still open."""
    turn = next_turn(run, None)
    page.goto(run.url)
    form = page.locator('form[aria-labelledby="t.issue_refund"]')
    form.locator('[id="issue_refund.order_id"]').fill("PZ-1")
    form.locator('[id="issue_refund.reason"]').fill("a reason")
    form.locator('[id="issue_refund.amount"]').fill("twelve")
    form.locator('[id="issue_refund.amount"]').press("Enter")  # keyboard: Enter submits
    line = "amount: 'twelve' is not a number"
    assert page.locator("#refusal").inner_text().startswith(line)  # the banner, and beside
    assert page.locator('[id="issue_refund.amount.error"]').inner_text() == line  # the field
    assert page.locator('[id="issue_refund.amount"]').input_value() == "twelve"  # kept
    assert run.status() == {"turn": turn, "answered": 0, "stopped": False, "ended": 0}
    assert page.evaluate(UNLABELLED) == []  # every field has its label


def test_human_page__pizza_through_chromium_gives_the_controls_record_and_refuses_bad_input(
    tmp_path: Path,
) -> None:
    moves, expected = control_run("pizza", tmp_path / "control")
    with human_run("pizza", tmp_path) as run, browser_page() as page:
        _refused_on_the_page(run, page)
        assert play(run, page, moves) == len(moves)
        assert run.process.wait(timeout=600) == 0
    assert records_of(run.log_dir) == expected
    human = samples_of(run.log_dir)[0].messages
    control = samples_of(tmp_path / "control")[0].messages
    ids = [[c.id for c in m.tool_calls or []] for m in human if m.role == "assistant"]
    assert ids == [[c.id for c in m.tool_calls or []] for m in control if m.role == "assistant"]


@pytest.mark.slow
@pytest.mark.parametrize("world", sorted(WORLD_RUNS))
def test_human_page__every_world_through_chromium_gives_the_controls_record(
    world: str, tmp_path: Path
) -> None:
    moves, expected = control_run(world, tmp_path / "control")
    shots = Path(tmp_path / "shots")
    shots.mkdir()
    with human_run(world, tmp_path) as run:
        for width in (1280, 480):  # the first turn, wide and narrow, for a person to look at
            with browser_page(width) as page:
                assert next_turn(run, None) is not None, "the run ended before its first turn"
                page.goto(run.url)
                page.screenshot(path=str(shots / f"{world}-{width}.png"), full_page=False)
                assert page.evaluate(UNLABELLED) == []
        with browser_page() as page:
            assert play(run, page, moves) == len(moves)
        assert run.process.wait(timeout=600) == 0
    assert records_of(run.log_dir) == expected
    print(f"screenshots: {shots}")


@pytest.mark.slow
def test_human_page__a_killed_run_resumes_from_its_journal_at_the_turn_in_progress(
    tmp_path: Path,
) -> None:
    moves, expected = control_run("pizza", tmp_path / "control")
    journal = tmp_path / "journal.jsonl"
    with human_run("pizza", tmp_path, journal=journal) as run, browser_page() as page:
        assert play(run, page, moves, until=2) == 2
        next_turn(run, None)  # turn 3 is open: the process is killed in it
    assert len(journal.read_text().splitlines()) == 2
    with human_run("pizza", tmp_path, journal=journal) as run, browser_page() as page:
        assert next_turn(run, None) == ["wrong-topping-1", 1, 3]  # answered turns replayed
        page.goto(run.url)
        assert "(from the journal)" in page.inner_text("body")
        assert play(run, page, moves[2:]) == len(moves) - 2
        assert run.process.wait(timeout=600) == 0
    assert records_of(run.log_dir) == expected


@pytest.mark.slow
def test_human_page__stop_ends_the_run_cleanly_and_keeps_the_answered_turns(
    tmp_path: Path,
) -> None:
    moves, _ = control_run("pizza", tmp_path / "control")
    journal = tmp_path / "journal.jsonl"
    with human_run("pizza", tmp_path, journal=journal) as run, browser_page() as page:
        play(run, page, moves, until=1)
        next_turn(run, None)
        try:
            page.goto(run.url)
        except Exception as err:  # the page's own poll reloaded it on the new turn first
            if "interrupted by another navigation" not in str(err):
                raise
            page.wait_for_load_state()
        page.get_by_role("button", name="Stop the run").click()
        assert "The run is stopped" in page.inner_text("body")
        assert run.process.wait(timeout=300) == 0
    (sample,) = samples_of(run.log_dir)
    assert not sample.scores  # cancelled: kept in the log, not scored
    answered = [json.loads(x)["calls"] for x in journal.read_text().splitlines()]
    assert answered == [[list(c) for c in moves[0][1]]]


@pytest.mark.slow
@pytest.mark.parametrize("verb", ["run", "suite"])
def test_human_page__run_and_suite_play_a_person_like_inspect_eval(
    verb: str, tmp_path: Path
) -> None:
    """`checkout-consent run pizza` and `suite --world pizza` with `--model human/web`: the
    same page, one sample at a time, and the control's own record."""
    moves, expected = control_run("pizza", tmp_path / "control")
    with human_run("pizza", tmp_path, verb=verb) as run, browser_page() as page:
        assert play(run, page, moves) == len(moves)
        assert run.process.wait(timeout=600) == 0
    assert records_of(run.log_dir) == expected
