"""Two worlds of one family on the board (storefront and storefront_v1), never pooled: each
its own table (storefront_v1's: its headline, then its own columns: breaches per run by
rule, clean runs, money lost, never netted into cash), storefront_v1's scatter plot (cash
against breaches, one point per submission, controls marked), each card checked against
its own world's version and its own task's settings, each world's examples in its own
folder, and storefront_v1's section as a headless browser draws it."""

from __future__ import annotations

import dataclasses
import datetime
import shutil
import statistics
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.consent import breach_rate
from checkout_consent.core.contract import World
from checkout_consent.core.money import fmt
from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import world_named
from checkout_consent.leaderboard import examples, plots, render
from checkout_consent.leaderboard.board import Entry, board, views
from checkout_consent.leaderboard.expected import public_settings, settings_differences
from checkout_consent.leaderboard.submission import Card, read_card
from checkout_consent.leaderboard.validate import validate
from checkout_consent.runtime.ladder import REAL
from checkout_consent.runtime.meta import task_params
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.conftest import needs_chromium
from tests.leaderboard.helpers import SUBMISSIONS, copy_example, edit_card, screenshot
from tests.leaderboard.test_plots import axes_box, text_extents

# two worlds of one family: the family's first, and a world of its own beside it
FIRST, OWN = world_named("storefront"), world_named("storefront_v1")
SEEDS = ("0", "1")


def test_worlds__two_worlds_of_one_family_with_their_own_names_and_versions() -> None:
    assert FIRST.family == OWN.family and FIRST.name != OWN.name
    assert FIRST.world_version != OWN.world_version
    assert OWN.board.scatter is not None and OWN.board.columns  # its board adds its own
    assert FIRST.board.scatter is None and not FIRST.board.columns


def _card(world: World, control: str, kind: str = "control") -> Card:
    return Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": examples.submission_id(world, control),
            "family": world.name,
            "kind": kind,
            "model": {"id": f"control/{world.family}-{control}", "provider": "control"},
            "agent": {"harness": "h", "tools": []},
            "date": datetime.date(2026, 12, 1),
            "suite_version": "0",
            "world_version": world.world_version,
            "task_set": "public",
            "epochs": 1,
            "wall_time_seconds": 1,
            "tokens": {"input": 0, "output": 0},
            "cost": {"list_usd": None, "normalized_usd": 0},
            "contact": "c",
        }
    )


def _entry(control: str, kind: str = "control", world: World = OWN) -> Entry:
    """An entry of the control's real records over two seeds of `world`, played offline."""
    runs = []
    for seed in SEEDS:
        scenario = world.dataset.task(seed)
        runs.append(
            (
                world.dataset.sample_id(scenario),
                scenario.scenario_id,
                1,
                _record(world, control, seed),
            )
        )
    return Entry(_card(world, control, kind), "x", tuple(runs), (0, 0), None, 0.0, None)


_RECORDS: dict[tuple[str, str, str], dict[str, Any]] = {}


def _record(world: World, control: str, seed: str) -> dict[str, Any]:
    if (world.name, control, seed) not in _RECORDS:
        scenario = world.dataset.task(seed)
        _RECORDS[world.name, control, seed] = play_and_grade(
            world, scenario, world.controls[control]
        )
    return _RECORDS[world.name, control, seed]


def test_board__each_world_has_its_own_table_with_its_columns_never_netted() -> None:
    entries = [_entry("oracle"), _entry("gullible")]
    [view] = views(OWN.name, entries)
    assert view.world == OWN.name != FIRST.name
    heads = render.columns(view)
    own = [c.heading for c in OWN.board.columns]
    assert heads[6 : 6 + len(own)] == own and heads[3].startswith(OWN.headline.label)
    assert heads[5] == render.CONSENT_HEADING  # the consent-breach rate, then its own
    [first] = views(FIRST.name, [_entry("oracle", world=FIRST)])
    assert first.world == FIRST.name and not set(own) & set(render.columns(first))
    gullible = next(r for r in view.rows if "gullible" in r.entry.card.submission_id)
    records = [r for *_, r in gullible.entry.runs]
    assert {r["world_version"] for r in records} == {OWN.world_version}
    cells = render.cells(gullible)
    per_rule = [
        f"{statistics.mean(r['breaches_by_rule'][rule] for r in records):.2f}"
        for rule in records[0]["breaches_by_rule"]
    ]
    lost = [sum(a["money_lost_cents"] for a in r["adversaries"].values()) for r in records]
    assert gullible.consent == breach_rate(
        OWN.family, [(t, r) for t, _, _, r in gullible.entry.runs]
    )
    assert cells[5] == render.consent_cell(gullible) and cells[5].startswith("100.0% ")
    assert cells[6] == " / ".join(per_rule) and cells[6] != "0.00 / 0.00 / 0.00"
    assert cells[7] == f"{sum(r['clean_run'] for r in records)}/{len(records)}"
    assert cells[8] == fmt(round(statistics.median(lost))) and min(lost) > 0
    cash = statistics.median(r["cash_final"] for r in records)  # cash alone: never netted
    assert gullible.mean == pytest.approx(cash)
    page = render.markdown([view, first])
    assert f"## {OWN.name}\n" in page and f"## {FIRST.name}\n" in page
    assert OWN.board.note[:40] in page


def test_board__runs_of_two_worlds_are_never_pooled(tmp_path: Path) -> None:
    """A board of one committed example of each world: two tables, each holding its own
    world's submission and records alone (the same seeds, the same sample ids)."""
    root = tmp_path / "submissions"
    mine = {
        world.name: copy_example(root, world.name, examples.submission_id(world, "oracle"))
        for world in (FIRST, OWN)
    }
    shown = {v.world: v for v in board(root)}
    for world in (FIRST, OWN):
        view = shown[world.name]
        assert [r.entry.path for r in view.rows] == [
            f"submissions/{world.name}/{mine[world.name].name}"
        ]
        [row] = view.rows
        assert {r["world_version"] for *_, r in row.entry.runs} == {world.world_version}
        assert {s for s, *_ in row.entry.runs} == {
            world.dataset.sample_id(world.dataset.task(t)) for t in world.dataset.tasks()
        }
    assert shown[FIRST.name].rows[0].mean != shown[OWN.name].rows[0].mean


def test_scatter__one_point_per_submission_labelled_inside_the_frame_controls_marked() -> None:
    world = OWN.board.scatter
    assert world is not None
    entries = [_entry("oracle"), _entry("gullible"), _entry("idle", kind="model")]
    [view] = views(OWN.name, entries)
    svg = plots.scatter(view, world)
    x0, y0, x1, y1 = axes_box(svg)
    ids = {r.entry.card.submission_id for r in view.rows}
    labels = [b for b in text_extents(svg) if b[0] in ids]
    assert len(labels) == len(ids) == 3
    assert all(x0 <= a and y0 <= b and c <= x1 and d <= y1 for _, a, b, c, d in labels)
    texts = {t for t, *_ in text_extents(svg)}
    assert {plots.KINDS["control"], plots.KINDS["model"], world.xlabel} <= texts
    empty = plots.scatter(dataclasses.replace(view, rows=()), world)
    assert f"<!-- {plots.EMPTY} -->" in empty and "matplotlib.axis_1" not in empty


def test_validate__a_card_naming_the_other_worlds_version_is_refused(tmp_path: Path) -> None:
    sid = examples.submission_id(OWN, "idle")
    sub = copy_example(tmp_path, OWN.name, sid)  # accepted as committed (test_validate)
    edit_card(sub, lambda card: card.update(world_version=FIRST.world_version))
    assert validate(sub, cassettes=False).refusals == [
        f"world version {FIRST.world_version!r} is unknown to this suite (it grades "
        f"{OWN.world_version}); re-run with this checkout"
    ]


def test_validate__a_worlds_run_filed_as_the_other_worlds_is_refused(tmp_path: Path) -> None:
    """storefront_v1's run under a storefront card (folder, family and version all the
    card's, its sample ids storefront's too) is refused by what the log plays."""
    sid = examples.submission_id(OWN, "idle")
    moved = tmp_path / FIRST.name / sid
    moved.parent.mkdir()
    shutil.move(copy_example(tmp_path, OWN.name, sid), moved)
    edit_card(moved, lambda card: card.update(family=FIRST.name, world_version=FIRST.world_version))
    assert validate(moved, cassettes=False).refusals == [
        f"run.eval: plays {OWN.world_version}, the card says {FIRST.world_version}"
    ]


def test_settings__each_world_is_checked_on_its_own_tasks_settings() -> None:
    """storefront's task takes arguments storefront_v1's does not: a storefront_v1 log that
    records them is refused, each, even at storefront's public setting."""
    first, mine = public_settings(FIRST.name), public_settings(OWN.name)
    assert set(mine) == set(task_params(OWN)) and set(first) == set(task_params(FIRST))
    extra = {k: v for k, v in first.items() if k not in mine}
    assert extra  # the family's first task takes an argument the other world's does not
    assert settings_differences(OWN.name, mine) == []
    assert settings_differences(OWN.name, {**mine, **extra}) == [
        f"task argument {k!r} is not one of {OWN.name}'s (-T {', '.join(mine)})" for k in extra
    ]


def test_settings__a_turn_budget_left_at_none_is_the_worlds_own_and_the_alias_is_gone() -> None:
    """storefront_v1's task leaves `turns_per_day` at None (its spec's own budget): the
    public setting, any other value a difference. storefront's `scenario=adversary_v1` (the
    alias that once played the month) is not storefront's public setting."""
    mine, first = public_settings(OWN.name), public_settings(FIRST.name)
    assert mine["turns_per_day"] is None
    assert settings_differences(OWN.name, {**mine, "turns_per_day": None}) == []
    assert settings_differences(OWN.name, {**mine, "turns_per_day": 3}) == [
        "task argument turns_per_day='3' is not the public setting None: it changes what "
        "the agent may do"
    ]
    alias = OWN.meta.scenario
    assert alias is not None and first["scenario"] != alias
    assert settings_differences(FIRST.name, {**first, "scenario": alias}) == [
        f"task argument scenario={alias!r} is not the public setting {first['scenario']!r}: "
        "it changes what the agent may do"
    ]


def test_examples__each_worlds_examples_sit_in_its_own_folder_under_their_own_ids() -> None:
    for control in OWN.controls:
        if control in FIRST.controls:
            assert examples.submission_id(OWN, control) != examples.submission_id(FIRST, control)
    for world in (FIRST, OWN):
        folders = sorted(p for p in (SUBMISSIONS / world.name).iterdir() if p.is_dir())
        cards = [read_card(p) for p in folders]
        assert cards and {(c.family, c.world_version) for c in cards} == {
            (world.name, world.world_version)
        }
        controls = {*examples.recorded(world), *examples.direct(world)}
        want = {examples.submission_id(world, c) for c in controls}
        want |= {examples.real_id(world, m) for m in examples.real_runs(world)}
        assert {p.name for p in folders} == want
        # a control keeps its family's name in every world of the family
        assert all(
            c.model.id.split("/")[1].startswith(f"{world.family}-")
            for c in cards
            if c.kind == "control"
        )


CONTROL_GREY = (0x8A, 0x8A, 0x8A)


def _section_page(tmp_path: Path) -> Path:
    """The committed page cut to storefront_v1's section (its table, note and plots)."""
    folder = REPO_ROOT / "leaderboard" / "site"
    page = (folder / "index.html").read_text()
    assert f"<section><h2>{FIRST.name}</h2>" in page  # the family's first: its own section
    start = page.index(f"<section><h2>{OWN.name}</h2>")
    end = page.index("</section>", start) + len("</section>")
    head = page[: page.index("<body>") + len("<body>")]
    section = page[start:end].replace('src="plots/', f'src="{folder.as_uri()}/plots/')
    out = tmp_path / "section.html"
    out.write_text(head + section + "</body></html>")
    return out


@needs_chromium
def test_site__a_worlds_section_renders_whole_in_a_headless_browser(tmp_path: Path) -> None:
    shot = tmp_path / "section.png"
    # 1400 px: the width the board is read at (its CI cells never wrap, so it is wide)
    screenshot(_section_page(tmp_path).as_uri(), shot, 1400, 1400)
    from PIL import Image

    image = Image.open(shot).convert("RGB")
    assert image.size == (1400, 1400)
    width, height = image.size
    pixels = image.load()
    # the page's right margin (the body's padding) stays blank: the table ends inside it
    right = {pixels[x, y] for x in range(width - 12, width) for y in range(height)}
    assert right == {(255, 255, 255)}  # the wide table fits: nothing runs past the edge
    grey = sum(1 for v in image.getdata() if v == CONTROL_GREY)
    assert grey > 200  # the controls' marked points and error bars are drawn
    dark = sum(1 for v in image.convert("L").getdata() if v < 128)
    assert dark > 0.005 * width * height


def test_examples__a_real_models_cassette_of_any_part_of_the_public_set_is_a_submission(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real model's cassette of a world, whole or part of its public set, makes a board
    submission (a partial one is listed with its coverage, never ranked: validate), found
    under that world's own folder only."""
    from checkout_consent.cassettes import store

    model = next(iter(REAL))
    monkeypatch.setattr(examples, "CASSETTES", tmp_path)
    assert examples.real_runs(OWN) == []  # no cassette: no submission
    for args in ({**OWN.dataset.public_args}, {**OWN.dataset.public_args, "seeds": "0-1"}):
        folder = store.run_dir(OWN.name, model, tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        manifest = store.Manifest(OWN.name, model, "http://127.0.0.1:8081/v1", {}, args)
        manifest.write(folder)
        assert examples.real_runs(OWN) == [model], args
        assert examples.real_runs(FIRST) == []  # the other world's folder holds none
