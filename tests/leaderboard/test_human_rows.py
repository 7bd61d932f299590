"""People's rows on the board, on a fixture built here (the committed board has none): a
`kind: human` card is a `human/` model's run and only that; its row has its own style and
the play's time, sits beside the models unranked, and joins their ranking only when the
reader's build asks (`--rank-humans`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checkout_consent.core.offline import play_and_grade
from checkout_consent.leaderboard.board import Entry, views
from checkout_consent.leaderboard.render import cells, human_note, markdown
from checkout_consent.leaderboard.site import html_table
from checkout_consent.leaderboard.submission import Card, CardError, parse_card, read_card
from checkout_consent.pizza import WORLD
from checkout_consent.pizza.dataset import find_task, scenario_of

EXAMPLE = Path("leaderboard/submissions/pizza/control-pizza-reference")
TASKS = ("wrong-topping-1", "cold-pizza-2", "missing-item-1", "late-delivery-3")


def _entry(kind: str, model: str, control: str, seconds: float = 725.0) -> Entry:
    base = read_card(EXAMPLE)
    card = Card.model_validate(
        base.model_dump()
        | {
            "kind": kind,
            "submission_id": f"{kind}-{control}",
            "model": {"id": model, "provider": model.split("/")[0]},
            "wall_time_seconds": seconds,
        }
        | ({"tokens": None, "cost": None} if kind == "human" else {})  # a person's: time
    )
    runs = []
    for task in TASKS:
        scenario = scenario_of(find_task(task), replies=True)
        record = play_and_grade(WORLD, scenario, WORLD.controls[control])
        runs.append((WORLD.dataset.sample_id(scenario), scenario.scenario_id, 1, record))
    return Entry(card, f"submissions/pizza/{kind}-{control}", tuple(runs), (10, 2), None, 0.1, None)


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    return [
        _entry("model", "openai/gpt-x", "mock"),
        _entry("human", "human/web", "reference"),
        _entry("control", "control/pizza-noop", "noop"),
    ]


def test_board__a_human_row_sits_beside_the_models_unranked_in_its_own_style(entries) -> None:
    (view,) = views("pizza", entries)
    kinds = [(r.entry.card.kind, r.rank) for r in view.rows]
    assert kinds == [("model", "1"), ("human", ""), ("control", "")]
    human = cells(view.rows[1])
    assert human[0] == "human" and human[2] == "human: human/web, 12 min 05 s played"
    assert '<tr class="human">' in html_table(view)
    assert "never ranked with them" in human_note(view)
    assert human_note(view) in markdown([view])


def test_board__the_readers_build_ranks_people_with_the_models_when_asked(entries) -> None:
    (view,) = views("pizza", entries, rank_humans=True)
    ranked = {r.entry.card.kind: r.rank for r in view.rows}
    assert ranked["human"] in ("1", "2", "=1") and ranked["model"] and ranked["control"] == ""
    assert "ranked with the models, as this build was asked to" in human_note(view)


def test_board__a_board_without_people_has_no_human_note_or_style(entries) -> None:
    (view,) = views("pizza", [e for e in entries if e.card.kind != "human"])
    assert human_note(view) == "" and "human" not in markdown([view]).lower()


@pytest.mark.parametrize(
    "kind, model",
    [("model", "human/web"), ("human", "openai/gpt-4.1"), ("control", "human/web")],
)
def test_card__kind_human_is_a_human_models_run_and_only_that(kind: str, model: str) -> None:
    text = (EXAMPLE / "submission.yaml").read_text()
    text = text.replace("kind: control", f"kind: {kind}")
    text = text.replace("id: openai/pizza-reference", f"id: {model}")
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert "kind human is for a human/ model's run" in str(err.value)


def test_card__a_human_card_parses_with_the_time_taken() -> None:
    text = (EXAMPLE / "submission.yaml").read_text()
    text = text.replace("kind: control", "kind: human").replace(
        "id: openai/pizza-reference", "id: human/web"
    )
    text = re.sub(r"^(tokens|cost):\n(  .*\n)+", "", text, flags=re.M)  # a person's: no tokens
    card = parse_card(re.sub(r"wall_time_seconds: .*", "wall_time_seconds: 1800.5", text))
    assert card.kind == "human" and card.wall_time_seconds == 1800.5
