"""The board's labels (leaderboard/render.py): a control named once and never like a
provider's model, a cost cell that says why it has no list price (`not priced`, `n/a
(script)`, `n/a (person)`), and storefront_v1's table at 1400 px in a headless Chromium:
no cell wraps, nothing runs past the window."""

from __future__ import annotations

import datetime
import html
import subprocess
from pathlib import Path

from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import world_named
from checkout_consent.leaderboard import render, site
from checkout_consent.leaderboard.board import Entry, views
from checkout_consent.leaderboard.submission import Card
from tests.conftest import chromium, needs_chromium

V1 = world_named("storefront_v1")  # its world version is the committed one, never typed


def _entry(
    model: str,
    kind: str,
    cost_list: float | None,
    runs: tuple = (),
    version: str = V1.world_version,
    family: str = V1.name,
) -> Entry:
    provider, _, name = model.partition("/")
    card = Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": name,
            "family": family,
            "kind": kind,
            "model": {"id": model, "provider": provider},
            "agent": {"harness": "h", "tools": []},
            "date": datetime.date(2026, 11, 1),
            "suite_version": "0",
            "world_version": version,
            "task_set": "public",
            "epochs": 1,
            "wall_time_seconds": 1,
            "contact": "c",
        }
        | (
            {}
            if kind == "human"  # a person's card states time, not tokens or a cost
            else {
                "tokens": {"input": 0, "output": 0},
                "cost": {"list_usd": cost_list, "normalized_usd": 0},
            }
        )
    )
    return Entry(card, f"submissions/{family}/{name}", runs, (0, 0), cost_list, 0.0, None)


def test_model_label__a_control_is_named_once_with_the_wire_it_was_served_over():
    assert render.model_label(_entry("control/storefront-cautious", "control", 0.0)) == (
        "control: storefront-cautious"
    )
    assert render.model_label(_entry("openai/storefront-oracle", "control", None)) == (
        "control: storefront-oracle (via the openai API)"
    )
    assert render.model_label(_entry("openai/gpt-4.1", "model", 1.0)) == "openai/gpt-4.1"


def test_cost_cell__says_why_a_row_has_no_list_price():
    rows = {
        "control/storefront-cautious": ("control", 0.0, "n/a (script)"),  # priced at zero
        "openai/storefront-oracle": ("control", None, "n/a (script)"),  # on the OpenAI wire
        "x/unpriced": ("model", None, "not priced"),
        "human/web": ("human", None, "n/a (person)"),
    }
    world = world_named("storefront")
    ref = world.dataset.task("0")
    runs = (("0", ref.scenario_id, 1, play_and_grade(world, ref, world.controls["idle"])),)

    def cost_cell(model: str, kind: str, cost: float | None) -> str:
        entry = _entry(model, kind, cost, runs, world.world_version, world.name)
        return render.cells(views("storefront", [entry])[0].rows[0])[-3]

    for model, (kind, cost, said) in rows.items():
        assert cost_cell(model, kind, cost) == said, model
    assert cost_cell("x/priced", "model", 1.5) == "$1.5000"


def _v1_entry(control: str) -> Entry:
    """storefront_v1's own control (named by its family, `storefront-<control>`) over two
    of its seeds, on a card naming storefront_v1 and its version."""
    runs = []
    for seed in V1.dataset.tasks()[:2]:
        ref = V1.dataset.task(seed)
        runs.append((seed, ref.scenario_id, 1, play_and_grade(V1, ref, V1.controls[control])))
    return _entry(f"openai/{V1.family}-{control}", "control", None, tuple(runs))


LINES = """<script>
document.addEventListener("DOMContentLoaded", () => {
  const out = [...document.querySelectorAll("td")].map((td) => {
    const r = document.createRange(); r.selectNodeContents(td);
    const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
    return lines - td.querySelectorAll("br").length;
  });
  const wide = document.documentElement.scrollWidth;
  document.title = "lines:" + out.join(",") + ";width:" + wide;
});
</script>"""


@needs_chromium
def test_site__storefront_v1_table_fits_1400px_with_no_cell_wrapped(tmp_path: Path):
    [view] = views(V1.name, [_v1_entry("oracle"), _v1_entry("gullible")])
    assert view.world == V1.name and len(view.rows) == 2
    page = tmp_path / "v1.html"
    page.write_text(
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{site.CSS}</style>'
        f"</head><body>{site.html_table(view)}{LINES}</body></html>"
    )
    browser = chromium()
    assert browser is not None
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"]
        + ["--hide-scrollbars", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    title = html.unescape(dom.split("<title>", 1)[1].split("</title>", 1)[0])
    lines, width = title.removeprefix("lines:").split(";width:")
    counts = [int(n) for n in lines.split(",")]
    # every cell is as many lines as it breaks on purpose (the model under its submission,
    # an interval under its figure): none wraps
    assert len(counts) == 2 * len(render.shown(view, render.columns(view))) - 2
    assert set(counts) == {1}, title
    assert int(width) <= 1400, title
