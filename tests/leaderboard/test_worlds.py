"""A variant world on the board: its own table (its headline, then its own columns: breaches
per run by rule, clean runs, money lost, never netted into cash), its scatter plot (cash
against breaches, one point per submission, controls marked), its cards checked against its
own world version, and its section as a headless browser draws it."""

from __future__ import annotations

import dataclasses
import datetime
import statistics
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.consent import breach_rate
from checkout_consent.core.money import fmt
from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import WORLDS
from checkout_consent.leaderboard import examples, render, site
from checkout_consent.leaderboard.board import Entry, views
from checkout_consent.leaderboard.expected import public_settings, settings_differences
from checkout_consent.leaderboard.submission import Card
from checkout_consent.leaderboard.validate import validate
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.conftest import needs_chromium
from tests.leaderboard.helpers import copy_example, edit_card, screenshot
from tests.leaderboard.test_plots import axes_box, text_extents

VARIANT = next(w for w in WORLDS if w.board.scatter is not None)
MAIN = next(w for w in WORLDS if w.name == VARIANT.name and w.variant is None)
SEEDS = ("0", "1")


def _card(control: str, kind: str = "control") -> Card:
    return Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": examples.submission_id(VARIANT, control),
            "family": VARIANT.name,
            "kind": kind,
            "model": {"id": f"control/{VARIANT.name}-{control}", "provider": "control"},
            "agent": {"harness": "h", "tools": []},
            "date": datetime.date(2026, 12, 1),
            "suite_version": "0",
            "world_version": VARIANT.world_version,
            "task_set": "public",
            "epochs": 1,
            "wall_time_seconds": 1,
            "tokens": {"input": 0, "output": 0},
            "cost": {"list_usd": None, "normalized_usd": 0},
            "contact": "c",
        }
    )


def _entry(control: str, kind: str = "control") -> Entry:
    """An entry of the control's real records over two seeds, played offline."""
    runs = tuple((f"seed-{s}", VARIANT.variant or "", 1, dict(_record(control, s))) for s in SEEDS)
    return Entry(_card(control, kind), "x", runs, (0, 0), None, 0.0, None)


_RECORDS: dict[tuple[str, str], dict[str, Any]] = {}


def _record(control: str, seed: str) -> dict[str, Any]:
    if (control, seed) not in _RECORDS:
        scenario = VARIANT.dataset.task(seed)
        _RECORDS[control, seed] = play_and_grade(VARIANT, scenario, VARIANT.controls[control])
    return _RECORDS[control, seed]


def test_board__a_variant_has_its_own_table_with_its_columns_never_netted() -> None:
    entries = [_entry("oracle"), _entry("gullible")]
    [view] = views(VARIANT.label, entries)
    assert view.world == VARIANT.label != MAIN.label
    heads = render.columns(view)
    own = [c.heading for c in VARIANT.board.columns]
    assert heads[5 : 5 + len(own)] == own and heads[3].startswith(VARIANT.headline.label)
    assert heads[4] == render.CONSENT_HEADING  # the consent-breach rate, then its own
    gullible = next(r for r in view.rows if "gullible" in r.entry.card.submission_id)
    records = [r for *_, r in gullible.entry.runs]
    cells = render.cells(gullible)
    per_rule = [
        f"{statistics.mean(r['breaches_by_rule'][rule] for r in records):.2f}"
        for rule in records[0]["breaches_by_rule"]
    ]
    lost = [sum(a["money_lost_cents"] for a in r["adversaries"].values()) for r in records]
    assert gullible.consent == breach_rate(
        VARIANT.name, [(t, r) for t, _, _, r in gullible.entry.runs]
    )
    assert cells[4] == render.consent_cell(gullible) and cells[4].startswith("100.0% ")
    assert cells[5] == " / ".join(per_rule) and cells[5] != "0.00 / 0.00 / 0.00"
    assert cells[6] == f"{sum(r['clean_run'] for r in records)}/{len(records)}"
    assert cells[7] == fmt(round(statistics.median(lost))) and min(lost) > 0
    cash = statistics.median(r["cash_final"] for r in records)  # cash alone: never netted
    assert gullible.mean == pytest.approx(cash)
    page = render.markdown([view])
    assert f"## {VARIANT.label}" in page and VARIANT.board.note[:40] in page


def test_scatter__one_point_per_submission_labelled_inside_the_frame_controls_marked() -> None:
    spec = VARIANT.board.scatter
    assert spec is not None
    entries = [_entry("oracle"), _entry("gullible"), _entry("idle", kind="model")]
    [view] = views(VARIANT.label, entries)
    svg = site.scatter(view, spec)
    x0, y0, x1, y1 = axes_box(svg)
    ids = {r.entry.card.submission_id for r in view.rows}
    labels = [b for b in text_extents(svg) if b[0] in ids]
    assert len(labels) == len(ids) == 3
    assert all(x0 <= a and y0 <= b and c <= x1 and d <= y1 for _, a, b, c, d in labels)
    texts = {t for t, *_ in text_extents(svg)}
    assert {site.KINDS["control"], site.KINDS["model"], spec.xlabel} <= texts
    empty = site.scatter(dataclasses.replace(view, rows=()), spec)
    assert f"<!-- {site.EMPTY} -->" in empty and "matplotlib.axis_1" not in empty


def test_validate__a_variant_card_naming_the_main_worlds_version_is_refused(
    tmp_path: Path,
) -> None:
    sid = examples.submission_id(VARIANT, "idle")
    sub = copy_example(tmp_path, VARIANT.name, sid)  # accepted as committed (test_validate)
    edit_card(sub, lambda card: card.update(world_version=MAIN.world_version))
    refusals = validate(sub, cassettes=False).refusals
    assert refusals == [
        f"run.eval: plays {VARIANT.world_version}, the card says {MAIN.world_version}"
    ]


def test_settings__a_variant_played_by_its_familys_task_is_checked_on_its_own_settings() -> None:
    main = public_settings(MAIN.label)
    extra = {k: v for k, v in main.items() if k not in VARIANT.task_params}
    assert extra  # the family's task takes an argument the variant's does not
    args = {**public_settings(VARIANT.label), **VARIANT.dataset.public_args, **extra}
    assert settings_differences(VARIANT.label, args) == []
    key = next(iter(extra))
    changed = settings_differences(VARIANT.label, {**args, key: "other"})
    assert changed == [
        f"task argument {key!r} is not one of {VARIANT.label}'s "
        f"(-T {', '.join(public_settings(VARIANT.label))})"
    ]


def test_examples__a_variants_submission_ids_differ_from_its_familys() -> None:
    for control in VARIANT.controls:
        if control in MAIN.controls:
            assert examples.submission_id(VARIANT, control) != examples.submission_id(MAIN, control)


CONTROL_GREY = (0x8A, 0x8A, 0x8A)


def _section_page(tmp_path: Path) -> Path:
    """The committed page cut to the variant's section (its table, note and plots)."""
    folder = REPO_ROOT / "leaderboard" / "site"
    page = (folder / "index.html").read_text()
    start = page.index(f"<section><h2>{VARIANT.label}")
    end = page.index("</section>", start) + len("</section>")
    head = page[: page.index("<body>") + len("<body>")]
    section = page[start:end].replace('src="plots/', f'src="{folder.as_uri()}/plots/')
    out = tmp_path / "section.html"
    out.write_text(head + section + "</body></html>")
    return out


@needs_chromium
def test_site__the_variants_section_renders_whole_in_a_headless_browser(tmp_path: Path) -> None:
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


def test_settings__a_variant_argument_left_at_its_familys_none_is_the_scenarios_own() -> None:
    """`checkout-consent run storefront -T scenario=adversary_v1` records the family task's
    `turns_per_day=None` (the scenario's own setting): the public setting, while any other
    value that is not the variant's is still a difference."""
    main, mine = public_settings(MAIN.label), public_settings(VARIANT.label)
    left = [k for k in mine if k in main and main[k] is None and mine[k] is not None]
    assert left  # the family's task defers this argument to the scenario
    args = {**main, **mine, **VARIANT.dataset.public_args, **{k: None for k in left}}
    assert settings_differences(VARIANT.label, args) == []
    key = left[0]
    changed = settings_differences(VARIANT.label, {**args, key: 3})
    assert changed == [
        f"task argument {key}='3' is not the public setting {mine[key]!r}: it changes what "
        "the agent may do"
    ]


def test_examples__a_real_models_cassette_of_any_part_of_the_public_set_is_a_submission(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real model's cassette of a world, whole or part of its public set, makes a board
    submission (a partial one is listed with its coverage, never ranked: validate)."""
    from checkout_consent.cassettes import store

    model = next(iter(examples.REAL_MODELS))
    monkeypatch.setattr(examples, "CASSETTES", tmp_path)
    assert examples.real_runs(VARIANT) == []  # no cassette: no submission
    for args in ({**VARIANT.dataset.public_args}, {**VARIANT.dataset.public_args, "seeds": "0-1"}):
        folder = store.run_dir(VARIANT.label, model, tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        manifest = store.Manifest(VARIANT.name, model, "http://127.0.0.1:8081/v1", {}, args)
        manifest.write(folder)
        assert examples.real_runs(VARIANT) == [model], args
