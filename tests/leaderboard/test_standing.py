"""Where a board row stands against its world's controls (leaderboard/bracket.py): the idle
and reference controls played on the row's own tasks; a model at the idle control's figure
says so and is never ranked above anyone; a season view counts a partial row on its own
tasks and leaves out an entry that played none of them."""

from __future__ import annotations

import datetime

import pytest

from checkout_consent.core.offline import play_and_grade
from checkout_consent.core.scenario import Scenario
from checkout_consent.families import world_named
from checkout_consent.leaderboard import bracket, render
from checkout_consent.leaderboard.board import Entry, views
from checkout_consent.leaderboard.expected import public_samples
from checkout_consent.leaderboard.submission import Card, season_of, season_tasks


def _card(sid: str, family: str, kind: str = "model", task_set: str = "public") -> Card:
    model = "human/web" if kind == "human" else f"x/{sid}"
    card = Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": sid,
            "family": family,
            "kind": kind,
            "model": {"id": model, "provider": model.split("/")[0]},
            "agent": {"harness": "h", "tools": []},
            "date": datetime.date(2026, 11, 1),
            "suite_version": "0",
            "world_version": "v",
            "task_set": task_set,
            "epochs": 1,
            "wall_time_seconds": 660,
            "contact": "c",
        }
        | (
            {}
            if kind == "human"  # a person's card states time, not tokens or a cost
            else {
                "tokens": {"input": 0, "output": 0},
                "cost": {"list_usd": None, "normalized_usd": 0},
            }
        )
    )
    section = {"store_snapshot": "v3.0", "seed": 0} if family == "grocery" else None
    return card.model_copy(update={"section": section})


def _entry(family: str, sid: str, control: str, **how: object) -> Entry:
    """A submission whose runs are `control`'s, offline, on the world's public samples
    (`only`: those whose scenario id is listed); `partial` marks it as part of its set."""
    world, only = world_named(family), how.get("only")
    runs = tuple(
        (
            i,
            ref["scenario_id"],
            1,
            play_and_grade(world, Scenario.model_validate(ref), world.controls[control]),
        )
        for i, ref in sorted(public_samples(family).items())
        if only is None or ref["scenario_id"] in only  # type: ignore[operator]
    )
    card = _card(sid, family, str(how.get("kind", "model")), str(how.get("task_set", "public")))
    partial = (len(runs), int(how["of"])) if "of" in how else None  # type: ignore[call-overload]
    return Entry(
        card,
        f"submissions/{family}/{sid}",
        runs,
        (0, 0),
        None,
        0.0,
        season_of(family, card.task_set),
        partial=partial,
    )


def test_board__a_model_at_the_idle_controls_score_says_so_and_is_not_ranked() -> None:
    idle, mock = _entry("pizza", "does-nothing", "noop"), _entry("pizza", "halfway", "mock")
    (view,) = views("pizza", [idle, mock])
    rows = {r.entry.card.submission_id: r for r in view.rows}
    assert [r.entry.card.submission_id for r in view.rows] == ["halfway", "does-nothing"]
    assert rows["does-nothing"].standing == "at idle" and rows["does-nothing"].rank == ""
    assert render.cells(rows["does-nothing"])[0] == "—"  # listed, never a rank of 1
    assert rows["halfway"].standing == "50% of the way" and rows["halfway"].rank == "1"
    assert "at idle" in render.markdown([view]) and render.STANDING_NOTE in render.markdown([view])


def test_board__a_lone_idle_model_is_never_rank_1_above_the_reference() -> None:
    model = _entry("grocery", "zero", "idle")
    reference = _entry("grocery", "ref", "reference", kind="control")
    for view in views("grocery", [model, reference]):
        if not view.rows:
            continue
        cells = {r.entry.card.submission_id: render.cells(r) for r in view.rows}
        assert cells["zero"][0] == "—" and cells["zero"][4] == "at idle", view.title
        assert cells["ref"][0] == "ref" and cells["ref"][4] == "at reference", view.title


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (900.0, "at idle"),
        (850.0, "below idle"),
        (1451.35, "50% of the way"),
        (2002.70, "at reference"),
        (2500.0, "above reference"),
    ],
)
def test_standing__reads_a_value_against_the_bracket(value: float, said: str) -> None:
    got = bracket.Bracket(900.0, 2002.70)
    assert bracket.standing("storefront", value, got) == said
    assert bracket.at_idle("storefront", value, got) == (said in ("at idle", "below idle"))


def test_standing__the_bracket_is_the_controls_on_the_rows_own_tasks() -> None:
    samples = sorted(public_samples("storefront"))[:3]
    got = bracket.bracket("storefront", samples)
    assert got is not None and got.idle == 900.0
    oracle = world_named("storefront").controls.reference
    records = bracket.control_runs("storefront", oracle)
    want = world_named("storefront").headline.figure([(s, records[s]) for s in samples])
    assert want is not None and got.reference == want.value
    assert bracket.bracket("storefront", ["not-a-public-sample"]) is None


def test_board__a_season_view_counts_a_partial_row_on_its_own_tasks() -> None:
    first, last = season_tasks("grocery", 1), season_tasks("grocery", 3)
    one = sorted(first)[0]
    person = _entry(
        "grocery",
        "a-person",
        "reference",
        kind="human",
        task_set="season-3",
        only={one},
        of=len(last),
    )
    newer = _entry(
        "grocery",
        "newer-only",
        "reference",
        task_set="season-3",
        only=set(last - first),
        of=len(last),
    )
    all_time, *_, season_3 = views("grocery", [person, newer])
    rows = {r.entry.card.submission_id: r for r in all_time.rows}
    assert set(rows) == {"a-person"}  # played nothing of Season 1's tasks: not there
    assert render.partial_label(rows["a-person"].entry) == f" (partial: 1 of {len(first)} runs)"
    assert render.cells(rows["a-person"])[-3:-1] == ["n/a (person)", "n/a (person)"]
    later = {r.entry.card.submission_id: r for r in season_3.rows}
    assert render.partial_label(later["a-person"].entry) == f" (partial: 1 of {len(last)} runs)"
