"""The board's labels (leaderboard/render.py): a control named once and never like a
provider's model, a cost cell `n/a` wherever no list price is known, and adversary_v1's
figure-with-interval cells on one line at 1400 px in a headless Chromium."""

from __future__ import annotations

import datetime
import html
import subprocess
from pathlib import Path

from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import world
from checkout_consent.leaderboard import render, site
from checkout_consent.leaderboard.board import Entry, views
from checkout_consent.leaderboard.submission import Card
from tests.conftest import chromium, needs_chromium

V1 = world("storefront/adversary_v1").world_version  # the committed version, never typed


def _entry(
    model: str, kind: str, cost_list: float | None, runs: tuple = (), version: str = V1
) -> Entry:
    provider, _, name = model.partition("/")
    card = Card.model_validate(
        {
            "schema_version": 1,
            "submission_id": name,
            "family": "storefront",
            "kind": kind,
            "model": {"id": model, "provider": provider},
            "agent": {"harness": "h", "tools": []},
            "date": datetime.date(2026, 11, 1),
            "suite_version": "0",
            "world_version": version,
            "task_set": "public",
            "epochs": 1,
            "wall_time_seconds": 1,
            "tokens": {"input": 0, "output": 0},
            "cost": {"list_usd": cost_list, "normalized_usd": 0},
            "contact": "c",
        }
    )
    return Entry(card, f"submissions/storefront/{name}", runs, (0, 0), cost_list, 0.0, None)


def test_model_label__a_control_is_named_once_with_the_wire_it_was_served_over():
    assert render.model_label(_entry("control/storefront-cautious", "control", 0.0)) == (
        "control: storefront-cautious"
    )
    assert render.model_label(_entry("openai/storefront-oracle", "control", None)) == (
        "control: storefront-oracle (via the openai API)"
    )
    assert render.model_label(_entry("openai/gpt-4.1", "model", 1.0)) == "openai/gpt-4.1"


def test_cost_cell__n_a_for_every_row_without_a_list_price():
    rows = {
        "control/storefront-cautious": ("control", 0.0),  # a script priced at zero
        "openai/storefront-oracle": ("control", None),  # a script on the OpenAI wire
        "x/unpriced": ("model", None),
    }
    spec = world("storefront")
    ref = spec.dataset.task("0")
    runs = (("0", ref.scenario_id, 1, play_and_grade(spec, ref, spec.controls["idle"])),)

    def cost_cell(model: str, kind: str, cost: float | None) -> str:
        entry = _entry(model, kind, cost, runs, "storefront-4")
        return render.cells(views("storefront", [entry])[0].rows[0])[-3]

    for model, (kind, cost) in rows.items():
        assert cost_cell(model, kind, cost) == "n/a", model
    assert cost_cell("x/priced", "model", 1.5) == "$1.5000"


def _v1_entry(control: str) -> Entry:
    spec = world("storefront")
    runs = []
    for seed in (0, 1):
        ref = spec.dataset.task(f"adversary_v1:{seed}")
        w = world("storefront")
        runs.append((str(seed), ref.scenario_id, 1, play_and_grade(w, ref, w.controls[control])))
    return _entry(f"openai/storefront-{control}", "control", None, tuple(runs))


LINES = """<script>
document.addEventListener("DOMContentLoaded", () => {
  const out = [...document.querySelectorAll("td.ci")].map((td) => {
    const r = document.createRange(); r.selectNodeContents(td);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  });
  document.title = "lines:" + out.join(",");
});
</script>"""


@needs_chromium
def test_site__adversary_v1_ci_cells_stay_on_one_line_at_1400px(tmp_path: Path):
    view = views("storefront/adversary_v1", [_v1_entry("oracle"), _v1_entry("gullible")])[0]
    page = tmp_path / "v1.html"
    page.write_text(
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{site.CSS}</style>'
        f"</head><body>{render.html_table(view)}{LINES}</body></html>"
    )
    browser = chromium()
    assert browser is not None
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"]
        + ["--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    title = html.unescape(dom.split("<title>", 1)[1].split("</title>", 1)[0])
    counts = [int(n) for n in title.removeprefix("lines:").split(",")]
    assert len(counts) == 2 * 2 and set(counts) == {1}, title  # headline + consent, 2 rows
