"""The board's plots read right: every glyph of every label inside the figure, no point's
label over another's (a person's row, a line at its score, beside a control at the same
score), cost and score axes that start at zero and span the values (a 0.05-cent difference
cannot fill a plot), "no submissions yet" for an empty view, zero and not-applicable bars
drawn apart, and inline code on the page rendered as code. Read from the SVG files
themselves."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from matplotlib.transforms import Affine2D

from checkout_consent.leaderboard import plots
from checkout_consent.leaderboard.board import View, board
from checkout_consent.runtime.provenance import REPO_ROOT

PLOTS = REPO_ROOT / "leaderboard" / "site" / "plots"
SVG = "{http://www.w3.org/2000/svg}"
HREF = "{http://www.w3.org/1999/xlink}href"


def _transform(text: str | None) -> Affine2D:
    """An SVG transform attribute as an affine map (rightmost applied first)."""
    out = Affine2D()
    for name, args in reversed(re.findall(r"(\w+)\(([^)]*)\)", text or "")):
        nums = [float(a) for a in args.replace(",", " ").split()]
        if name == "translate":
            out.translate(nums[0], nums[1] if len(nums) > 1 else 0.0)
        elif name == "scale":
            out.scale(nums[0], nums[1] if len(nums) > 1 else nums[0])
        elif name == "rotate":
            out.rotate_deg(nums[0])
        else:
            raise AssertionError(f"unexpected SVG transform {name}")
    return out


def _points(d: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", d)]
    return list(zip(nums[::2], nums[1::2], strict=True))


def _glyph_points(node: ET.Element, outer: Affine2D, glyphs: dict, found: list) -> None:
    here = _transform(node.get("transform")) + outer
    ref = node.get(HREF, "")[1:]
    if node.tag == f"{SVG}use" and ref in glyphs:
        inner, pts = glyphs[ref]
        if pts:
            found.extend((float(x), float(y)) for x, y in (inner + here).transform(pts))
    for child in node:
        _glyph_points(child, here, glyphs, found)


def text_extents(svg: str) -> list[tuple[str, float, float, float, float]]:
    """(text, x0, y0, x1, y1) in viewBox units for every text group, from its glyph paths."""
    root = ET.fromstring(svg, ET.XMLParser(target=ET.TreeBuilder(insert_comments=True)))
    glyphs = {
        p.get("id"): (_transform(p.get("transform")), _points(p.get("d", "")))
        for p in root.iter(f"{SVG}path")
        if (p.get("id") or "").startswith("DejaVu")
    }
    out = []
    for group in root.iter(f"{SVG}g"):
        if not (group.get("id") or "").startswith("text_"):
            continue
        found: list[tuple[float, float]] = []
        _glyph_points(group, Affine2D(), glyphs, found)
        label = re.search(r"<!-- (.*?) -->", ET.tostring(group, encoding="unicode"))
        if found:
            xs, ys = [p[0] for p in found], [p[1] for p in found]
            out.append((label.group(1) if label else "", min(xs), min(ys), max(xs), max(ys)))
    return out


def ticks(svg: str, axis: int) -> list[float]:
    """The numeric tick labels of axis 1 (x) or 2 (y), read from the SVG's text comments."""
    part = svg.split(f'id="matplotlib.axis_{axis}"', 1)[1].split('id="matplotlib.axis_', 1)[0]
    labels = re.findall(r'id="[xy]tick_\d+">.*?<!-- (.*?) -->', part, flags=re.S)
    return [
        float(t.replace("$", "").replace(",", "").replace("%", "").replace("−", "-"))
        / (100 if t.endswith("%") else 1)
        for t in labels
    ]


def axes_box(svg: str) -> tuple[float, float, float, float]:
    """The first axes' frame (x0, y0, x1, y1): its background patch."""
    part = svg.split('<g id="axes_1">', 1)[1]
    d = re.search(r'<path d="([^"]*)"', part)
    assert d, "an SVG without axes"
    xs, ys = zip(*_points(d.group(1)), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def _viewbox(svg: str) -> tuple[float, float]:
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    assert box, "an SVG without a viewBox"
    return float(box.group(1)), float(box.group(2))


@pytest.fixture(scope="module")
def views() -> list[View]:
    return board(REPO_ROOT / "leaderboard" / "submissions")


def _committed() -> list[Path]:
    found = sorted(PLOTS.glob("*.svg"))
    assert found, "no committed plots"
    return found


def test_plots__every_label_lies_inside_the_figure():
    for path in _committed():
        svg = path.read_text()
        width, height = _viewbox(svg)
        boxes = text_extents(svg)
        assert len(boxes) >= 2, path.name
        for text, x0, y0, x1, y1 in boxes:
            assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, (
                f"{path.name}: {text!r} runs past the frame ({x0:.1f},{y0:.1f})-({x1:.1f},{y1:.1f})"
            )


def test_plots__text_extents_catch_a_label_past_the_frame():
    import matplotlib.pyplot as plt

    with plt.rc_context(plots.STYLE):
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.annotate("a label far too long for this small figure", (0.9, 0.5))
        svg = plots._svg(fig)
    width, _ = _viewbox(svg)
    assert any(x1 > width for _, _, _, x1, _ in text_extents(svg))


def _score_cost_axes(svg: str, view: View) -> None:
    costs = [r.entry.cost_normalized for r in view.rows]
    x = ticks(svg, 1)
    assert min(x) <= 0 <= max(x) or min(x) == 0, (view.world, x)
    assert max(x) - min(x) >= 0.5 * max(costs + [plots.MIN_COST_SPAN]), (view.world, x, costs)
    y = ticks(svg, 2)
    means = [abs(r.mean) for r in view.rows]
    assert min(y) <= 0 and max(y) - min(y) >= 0.5 * max(means + [1.0]), (view.world, y, means)


def test_plots__point_labels_lie_inside_the_plot_frame(views):
    for view in (v for v in views if v.rows):
        svg = (PLOTS / f"{_slug(view)}-score-cost.svg").read_text()
        x0, y0, x1, y1 = axes_box(svg)
        ids = {r.entry.card.submission_id for r in view.rows}
        labels = [b for b in text_extents(svg) if b[0] in ids]
        assert len(labels) == len(ids), (view.world, view.title)
        for text, a, b, c, d in labels:
            assert x0 <= a and y0 <= b and c <= x1 and d <= y1, (
                f"{_slug(view)}: {text!r} runs past the plot frame"
            )


def test_plots__score_cost_axes_start_at_zero_and_span_the_values(views):
    drawn = [v for v in views if v.rows]
    assert drawn
    for view in drawn:
        _score_cost_axes(plots.score_cost(view), view)
        _score_cost_axes((PLOTS / f"{_slug(view)}-score-cost.svg").read_text(), view)


def test_plots__a_tiny_cost_difference_does_not_fill_the_axis(views):
    view = next(v for v in views if len(v.rows) >= 2)
    rows = tuple(
        dataclasses.replace(
            r, entry=dataclasses.replace(r.entry, cost_normalized=1.2176 + 0.0005 * i)
        )
        for i, r in enumerate(view.rows)
    )
    tiny = dataclasses.replace(view, rows=rows)
    svg = plots.score_cost(tiny)
    _score_cost_axes(svg, tiny)
    assert ticks(svg, 1)[0] == 0.0
    free = dataclasses.replace(
        view,
        rows=tuple(
            dataclasses.replace(r, entry=dataclasses.replace(r.entry, cost_normalized=0.0))
            for r in view.rows
        ),
    )
    assert max(ticks(plots.score_cost(free), 1)) >= plots.MIN_COST_SPAN


def _slug(view: View) -> str:
    text = view.world + ("-" + view.title if view.title else "")
    return text.lower().replace(" ", "-").replace("/", "-")


def test_plots__an_empty_view_says_no_submissions_yet(views):
    empty = [v for v in views if not v.rows]
    assert empty, "the committed board has no empty view to check"
    for view in empty:
        svg = (PLOTS / f"{_slug(view)}-score-cost.svg").read_text()
        assert f"<!-- {plots.EMPTY} -->" in svg and "matplotlib.axis_1" not in svg
    drawn = plots.score_cost(next(v for v in views if v.rows))
    assert plots.EMPTY not in drawn


def test_plots__zero_and_not_applicable_bars_are_drawn_apart():
    svg = (PLOTS / "storefront-breakdown.svg").read_text()
    texts = [t for t, *_ in text_extents(svg)]
    assert "zero: a stroke on the axis" in texts
    assert "not applicable: variant never met" in texts
    assert "n/a" in texts and "0/0" not in texts  # the oracle never met a trap: not "0/0"
    assert "<pattern " in svg  # the hatched placeholder


def test_site__intro_shows_inline_code_as_code():
    page = (REPO_ROOT / "leaderboard" / "site" / "index.html").read_text()
    intro = page.split("<h1>", 1)[1].split("<nav>", 1)[0]
    assert "`" not in intro
    assert "<code>checkout-consent leaderboard build</code>" in intro


def _crossing(svg: str, names: set[str]) -> list[tuple[str, str]]:
    """Every pair of the named labels whose drawn glyph boxes intersect."""
    boxes = [b for b in text_extents(svg) if any(b[0].startswith(n) for n in names)]
    assert len(boxes) == len(names), (sorted(names), [b[0] for b in boxes])
    return [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]


def test_plots__no_point_label_prints_over_another(views):
    for view in (v for v in views if v.rows):
        ids = {r.entry.card.submission_id for r in view.rows}
        for kind in ("score-cost", "scatter"):
            path = PLOTS / f"{_slug(view)}-{kind}.svg"
            if path.is_file():
                assert _crossing(path.read_text(), ids) == [], path.name


def _crowded(view: View, human: bool) -> View:
    """`view` with every row moved onto the first row's score and cost (as a person beside
    the reference, both at 1.0): the case where labels fell on each other; with `human`,
    the first row is a person's."""
    first = view.rows[0]
    rows = [
        dataclasses.replace(
            r,
            mean=first.mean,
            low=first.low,
            high=first.high,
            entry=dataclasses.replace(r.entry, cost_normalized=first.entry.cost_normalized),
        )
        for r in view.rows
    ]
    if human:
        card = first.entry.card.model_copy(update={"kind": "human"})
        rows[0] = dataclasses.replace(rows[0], entry=dataclasses.replace(first.entry, card=card))
    return dataclasses.replace(view, rows=tuple(rows))


@pytest.mark.parametrize("human", [False, True])
def test_plots__labels_of_points_on_one_spot_do_not_overlap(views, human):
    view = max(views, key=lambda v: len(v.rows))
    assert len(view.rows) >= 3
    crowded = _crowded(view, human)
    svg = plots.score_cost(crowded)
    ids = {r.entry.card.submission_id for r in crowded.rows}
    assert _crossing(svg, ids) == []
    x0, y0, x1, y1 = axes_box(svg)
    for text, a, b, c, d in (t for t in text_extents(svg) if any(t[0].startswith(i) for i in ids)):
        assert x0 <= a and y0 <= b and c <= x1 and d <= y1, text
    if human:  # a person has no cost: drawn as a line, labelled so, not as a point
        assert f"{crowded.rows[0].entry.card.submission_id} (a person: no cost)" in svg
    assert plots.score_cost(crowded) == svg  # placed deterministically
