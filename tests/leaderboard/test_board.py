"""The board: rank bands from CIs, controls as references, grocery seasons, stale checks."""

import datetime

from checkout_consent.core.consent import NO_MONEY, breach_rate, rate_headline
from checkout_consent.families import world_named
from checkout_consent.leaderboard import render, site
from checkout_consent.leaderboard.board import Entry, Row, rank_bands, views
from checkout_consent.leaderboard.bracket import HEADING as STANDING_HEADING
from checkout_consent.leaderboard.submission import Card, season_of, season_tasks, seasons


def _card(
    sid: str, family: str = "pizza", kind: str = "model", task_set: str = "public", epochs: int = 1
) -> Card:
    card = Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": sid,
            "family": family,
            "kind": kind,
            "model": {"id": f"x/{sid}", "provider": "x"},
            "agent": {"harness": "h", "tools": []},
            "date": datetime.date(2026, 11, 1),
            "suite_version": "0",
            "world_version": "v",
            "task_set": task_set,
            "epochs": epochs,
            "wall_time_seconds": 1,
            "tokens": {"input": 0, "output": 0},
            "cost": {"list_usd": None, "normalized_usd": 0},
            "contact": "c",
        }
    )
    section = {"store_snapshot": "v3.0", "seed": 0} if family == "grocery" else None
    return card.model_copy(update={"section": section})


def _entry(card: Card, scores: dict[str, list[float]]) -> Entry:
    runs = tuple(
        (task, task, e + 1, {"score": s, "hard_fails": {}})
        for task, epochs in sorted(scores.items())
        for e, s in enumerate(epochs)
    )
    return Entry(
        card,
        f"submissions/{card.family}/{card.submission_id}",
        runs,
        (0, 0),
        None,
        0.0,
        season_of(card.family, card.task_set),
    )


def _row(mean: float, low: float, high: float) -> Row:
    return Row(_entry(_card(f"m{mean}"), {}), "", mean, low, high, 10, None)


def test_rank_bands__overlapping_intervals_share_a_rank():
    rows = rank_bands([_row(0.9, 0.85, 0.95), _row(0.8, 0.7, 0.9), _row(0.3, 0.2, 0.4)])
    assert [r.rank for r in rows] == ["=1", "=1", "3"]


def test_rank_bands__separated_intervals_rank_in_order():
    rows = rank_bands([_row(0.9, 0.85, 0.95), _row(0.6, 0.5, 0.7), _row(0.3, 0.2, 0.4)])
    assert [r.rank for r in rows] == ["1", "2", "3"]


def test_views__controls_are_reference_rows_after_the_models():
    entries = [
        _entry(_card("ctl", kind="control"), {"a": [1.0], "b": [1.0]}),
        _entry(_card("mod"), {"a": [0.0], "b": [1.0]}),
    ]
    [view] = views("pizza", entries)
    assert [r.entry.card.submission_id for r in view.rows] == ["mod", "ctl"]
    assert [render.cells(r)[0] for r in view.rows] == ["1", "ref"]


def test_views__no_transcript_is_listed_not_ranked():
    [view] = views("pizza", [_entry(_card("ghost"), {})])
    assert view.rows == () and [e.card.submission_id for e in view.unranked] == ["ghost"]
    assert "ghost (x/ghost, 2026-11-01): no transcript" in render.markdown([view])


def test_views__pass_hat_k_shown_where_epochs_exceed_one():
    entry = _entry(_card("two", epochs=2), {"a": [1.0, 1.0], "b": [1.0, 0.0]})
    [view] = views("pizza", [entry])
    assert view.rows[0].pass_k == 0.5
    assert "50.0% (k=2)" in render.markdown([view])


def _gapped(sid: str, gaps: dict[str, list[int | None]]) -> Entry:
    """A pizza-family entry whose records carry `totals.gap_cents` (the key, not the family,
    makes the column)."""
    runs = tuple(
        (task, task, e + 1, {"score": 1.0, "hard_fails": {}, "totals": {"gap_cents": g}})
        for task, epochs in sorted(gaps.items())
        for e, g in enumerate(epochs)
    )
    card = _card(sid)
    return Entry(card, f"submissions/pizza/{sid}", runs, (0, 0), None, 0.0, None)


def test_gap__mean_over_tasks_of_the_epoch_means_in_dollars_beside_the_headline():
    entry = _gapped("g", {"a": [100, 300], "b": [-50], "c": [None]})
    assert entry.gap() == (2.0 + -0.5) / 2
    [view] = views("pizza", [entry])
    heads = render.columns(view)
    assert heads[3].startswith("mean score") and heads[4] == STANDING_HEADING
    assert heads[5] == render.CONSENT_HEADING and heads[6] == render.GAP_HEADING
    assert render.cells(view.rows[0], gap=True)[6] == "$0.75"
    md = render.markdown([view])
    assert render.GAP_HEADING in md and render.GAP_NOTE in md
    assert f"<th>{render.GAP_HEADING}</th>" in site.html_table(view)


def test_gap__no_column_when_no_record_reports_one():
    [view] = views("pizza", [_entry(_card("plain"), {"a": [1.0]}), _gapped("n", {"a": [None]})])
    assert all(r.gap is None for r in view.rows)
    assert render.GAP_HEADING not in render.markdown([view])
    assert len(render.columns(view)) == len(render.COLUMNS) + 2  # vs controls, consent
    assert render.cells(view.rows[0], gap=True)[6] == "—"


def test_seasons__follow_the_grocery_seed():
    assert seasons("grocery") == (1, 2, 3) and seasons("pizza") == ()
    assert [len(season_tasks("grocery", s)) for s in (1, 2, 3)] == [7, 8, 11]
    assert season_tasks("grocery", 2) - season_tasks("grocery", 1) == {"tight-week"}


def test_seasons__each_board_is_its_own_submissions_on_its_tasks():
    every = {t: [1.0] for t in season_tasks("grocery", 3)}
    s1 = _entry(
        _card("old", "grocery", task_set="season-1"), {t: [0.5] for t in season_tasks("grocery", 1)}
    )
    s3 = _entry(_card("new", "grocery", task_set="season-3"), every)
    all_time, one, two, three = views("grocery", [s1, s3])
    assert [v.title for v in (all_time, one, two, three)] == [
        "All time",
        "Season 1",
        "Season 2",
        "Season 3",
    ]
    assert {r.entry.card.submission_id: r.n for r in all_time.rows} == {"old": 7, "new": 7}
    assert [r.entry.card.submission_id for r in one.rows] == ["old"]
    assert two.rows == () and [(r.entry.card.submission_id, r.n) for r in three.rows] == [
        ("new", 11)
    ]
    later = _entry(_card("later", "grocery", task_set="season-3"), every)
    assert views("grocery", [s1, s3, later])[1] == one  # a later submission: Season 1 frozen


def test_markdown__links_each_submission_and_marks_controls():
    entries = [_entry(_card("ctl", kind="control"), {"a": [1.0]})]
    text = render.markdown(views("pizza", entries))
    assert "| ref | [ctl](submissions/pizza/ctl/) | control: ctl (via the x API) |" in text


def _verdict(breach: bool) -> dict:
    return {"within": not breach, "breaches": [{"party": "agent"}] if breach else []}


def _consented(sid: str, breached: dict[str, list[bool]]) -> Entry:
    """A pizza entry whose runs carry consent blocks: True = a run with a breach."""
    runs = tuple(
        (task, task, e + 1, {"score": 1.0, "consent": {"verdicts": [_verdict(b)]}})
        for task, epochs in sorted(breached.items())
        for e, b in enumerate(epochs)
    )
    return Entry(_card(sid), f"submissions/pizza/{sid}", runs, (0, 0), None, 0.0, None)


def test_consent_column__the_breach_rate_with_its_ci_beside_the_headline():
    entry = _consented("c", {"a": [True, False], "b": [False], "c": [True]})
    want = breach_rate("pizza", [(t, r) for t, _, _, r in entry.runs])
    assert want is not None and want.value == (0.5 + 0 + 1) / 3
    [view] = views("pizza", [entry])
    assert view.rows[0].consent == want
    assert render.columns(view)[5] == render.CONSENT_HEADING
    head = rate_headline("pizza")
    cell = f"{head.show(want.value)} ({head.show(want.low)} to {head.show(want.high)})"
    assert render.cells(view.rows[0])[5] == cell
    md = render.markdown([view])
    assert f"| {cell} |" in md and render.CONSENT_NOTE in render.suite_note([view])
    head = world_named("pizza").headline
    score = f"{head.label} {head.show(view.rows[0].mean)}"
    assert render.SUITE_HEADING in md and f"| x/c | {cell} · {score} |" in md
    assert "what it is in each world, the agent's and a counterparty's" in render.suite_note([view])


def test_suite_consent__says_what_a_breach_is_in_each_world_and_whose_rate_it_shows():
    fee = {"within": False, "breaches": [{"party": "counterparty"}]}
    record = {"seed": 1, "cash_final": 900.0, "consent": {"verdicts": [fee]}}
    shop = Entry(
        _card("s", family="storefront"),
        "submissions/storefront/s",
        (("1", "1", 1, record),),
        (0, 0),
        None,
        0.0,
        None,
    )
    both = [*views("pizza", [_consented("p", {"a": [False]})]), *views("storefront", [shop])]
    heads, table = render.suite_meaning(both)
    rows = {r[0]: r for r in table}
    assert heads[:3] == ["world", "the agent's breach", "a counterparty's breach"]
    assert rows["storefront"][1].startswith("cannot breach here")  # never a clean 0%
    assert rows["pizza"][2].startswith("cannot breach here")
    assert "counterparty breach the agent let through" in rows["storefront"][3]
    heads, table = render.suite_consent(both)
    assert heads == ["model", "pizza", "storefront (counterparty)"]
    shop_cell = dict(zip(heads, next(r for r in table if r[0] == "x/s"), strict=True))
    assert shop_cell["storefront (counterparty)"].startswith("100.0% (100.0% to 100.0%) · ")
    md = render.markdown(both)
    assert "| world | the agent's breach | a counterparty's breach |" in md


def test_suite_cell__an_idle_runs_zero_carries_its_score_beside_it():
    idle = _consented("idle", {"a": [False], "b": [False]})
    [view] = views("pizza", [idle])
    cell = render.suite_cell(view.rows[0])
    head = world_named("pizza").headline
    assert cell.startswith("0.0% (0.0% to 0.0%) · ")
    assert cell.endswith(f"{head.label} {head.show(view.rows[0].mean)}")


def test_consent_column__a_world_without_money_has_none_and_says_so():
    key = world_named("shopkit").headline.key
    runs = (("T1", "T1", 1, {key: 1.0}),)
    entry = Entry(
        _card("s", family="shopkit"), "submissions/shopkit/s", runs, (0, 0), None, 0, None
    )
    [view] = views("shopkit", [entry])
    assert view.rows[0].consent is None
    assert render.CONSENT_HEADING not in render.columns(view)
    assert len(render.cells(view.rows[0])) == len(render.columns(view))
    assert NO_MONEY in render.consent_note(view)
    heads, table = render.suite_consent([view])
    assert heads == ["model"] and table == [] and NO_MONEY in render.suite_note([view])
