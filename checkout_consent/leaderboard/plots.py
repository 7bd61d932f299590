"""The board's plots, drawn with matplotlib as SVG, byte-identical build to build (a bundled
font, glyphs as paths, a fixed hash salt, no date metadata). Axes start at zero for
quantities that cannot be negative, and every label stays clear of every other label and
point."""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable
from typing import Any, NamedTuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.text import Annotation  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from checkout_consent.core.money import fmt_dollars  # noqa: E402
from checkout_consent.core.presentation import Breakdown, Scatter  # noqa: E402
from checkout_consent.families import world_named  # noqa: E402
from checkout_consent.leaderboard import render  # noqa: E402
from checkout_consent.leaderboard.board import Entry, View  # noqa: E402

STYLE: Any = {
    "svg.hashsalt": "checkout-consent-board",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "path.simplify": False,
}
COLOURS = {"model": "#1f5fa8", "control": "#8a8a8a", "human": "#b35900"}
MARKERS = {"model": "o", "control": "s", "human": "D"}
KINDS = {"model": "model", "control": "control (scripted agent)", "human": "human (a person)"}
EMPTY = "no submissions yet"
NOT_APPLICABLE: dict[str, Any] = {"facecolor": "none", "edgecolor": "#9a9a9a", "hatch": "////"}
PLACEHOLDER = 0.04  # the height of a not-applicable bar on a 0-1 axis
MIN_COST_SPAN = 0.01  # dollars: an axis of costs spans at least a cent
LABEL_CHARS = 44  # a submission id whole (`model-adversary_v1-qwen-coder-0.5b-fenced` is 41)


# Where a point's label may go, tried in this order (offset in points, alignment): the
# first spot inside the axes that touches no label and no point already drawn wins.
SPOTS = tuple(
    ((dx, dy), "left" if dx > 0 else "right", "bottom" if dy > 0 else "top")
    for dy in (d for step in range(12) for d in (4 + 9 * step, -5 - 9 * step))
    for dx in (6, -6)
)
MARK = 5.0  # pixels around a point that a label keeps clear of (the marker's half-size)


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches=None)
    plt.close(fig)
    return out.getvalue()


def _short(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def limits(values: list[float], min_span: float) -> tuple[float, float]:
    """Axis limits that include zero, span at least `min_span`, padded at both ends."""
    lo, hi = min(0.0, *values), max(0.0, *values)
    if hi - lo < min_span:
        hi = lo + min_span
    pad = 0.06 * (hi - lo)
    return lo - pad, hi + pad


def _empty(ax: Axes) -> None:
    ax.set_axis_off()
    ax.text(
        0.5,
        0.5,
        EMPTY,
        transform=ax.transAxes,
        ha="center",
        va="center",
        fontsize=12,
        color="#666666",
    )


class Label(NamedTuple):
    """A label to place at a data point (x, y)."""

    text: str
    x: float
    y: float


def place_labels(fig: Figure, ax: Axes, labels: list[Label]) -> None:
    """Each label at the first of `SPOTS` inside the axes and clear of earlier labels and
    every point, else the one that overlaps least. Call after the layout is final."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    frame = ax.get_window_extent(renderer)
    marks = [_mark(ax, lab) for lab in labels]
    placed: list[Bbox] = []
    for lab in labels:
        best: tuple[float, int, Annotation, Bbox] | None = None
        for i, (offset, ha, va) in enumerate(SPOTS):
            text = ax.annotate(
                lab.text,
                (lab.x, lab.y),
                textcoords="offset points",
                fontsize=7,
                xytext=offset,
                ha=ha,
                va=va,
            )
            box = text.get_window_extent(renderer).expanded(1.0, 1.0).padded(1.0)
            cost = _overlap(box, placed + marks) + (0.0 if _inside(box, frame) else 1e9)
            if best is None or cost < best[0]:
                if best is not None:
                    best[2].remove()
                best = (cost, i, text, box)
            else:
                text.remove()
            if cost == 0:
                break
        assert best is not None
        placed.append(best[3])


def _mark(ax: Axes, lab: Label) -> Bbox:
    x, y = ax.transData.transform((lab.x, lab.y))
    return Bbox.from_extents(x - MARK, y - MARK, x + MARK, y + MARK)


def _inside(box: Bbox, frame: Bbox) -> bool:
    return box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0 and box.y1 <= frame.y1


def _overlap(box: Bbox, others: list[Bbox]) -> float:
    """The area `box` shares with `others`, in square pixels."""
    shared = (Bbox.intersection(box, o) for o in others)
    return sum(s.width * s.height for s in shared if s is not None)


def _headline_plot(
    view: View,
    title: str,
    size: tuple[float, float],
    xs: list[float | None],
    min_span: float,
    xlabel: str,
    dress: Callable[[Axes], None],
) -> str:
    """The headline (95% CI) against `xs`, one labelled point per row; `dress` adds the rest."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=size)
        ax.set_title(textwrap.fill(title, 70))
        if not view.rows:
            _empty(ax)
        else:
            ax.set_xlim(*limits([x for x in xs if x is not None] or [0.0], min_span))
            _headline_axis(ax, view)
            _points(ax, view, xs)
            dress(ax)
            ax.set_xlabel(xlabel)
            ax.grid(True, alpha=0.3)
        fig.tight_layout()
        if view.rows:  # placed on the final layout, from the drawn extents
            place_labels(fig, ax, _labels(ax, view, xs))
        return _svg(fig)


def score_cost(view: View) -> str:
    """Headline (with its 95% CI as error bars) against normalized cost, one point a row."""

    def dollars(ax: Axes) -> None:
        ax.xaxis.set_major_locator(MaxNLocator(6))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt_dollars(v)))

    title = f"{render.heading(view)}: score against cost (grey: controls)"
    costs = [None if r.entry.card.kind == "human" else r.entry.cost_normalized for r in view.rows]
    xlabel = "cost at normalized rates (USD, whole submission)"
    return _headline_plot(view, title, (6.4, 3.6), costs, MIN_COST_SPAN, xlabel, dollars)


def _bars(
    title: str,
    groups: list[str],
    series: dict[str, list[float | None]],
    ylabel: str,
    labels: dict[str, list[str]],
    not_applicable: str,
) -> str:
    """Grouped bars on a 0-1 axis: None hatched, zero a stroke on the axis, both in the legend."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7.2, 3.8))
        width = 0.8 / max(1, len(series))
        turn = 90 if len(series) > 3 else 0  # narrow bars: their figures upright, apart
        handles: list[Any] = []
        for i, (name, values) in enumerate(series.items()):
            xs = [g + i * width for g in range(len(groups))]
            heights = [PLACEHOLDER if v is None else v for v in values]
            colour = f"C{i}"
            bars = ax.bar(xs, heights, width, color=colour)
            handles.append(Patch(facecolor=colour, label=_short(name)))
            for x, v, patch in zip(xs, values, bars.patches, strict=True):
                if v is None:
                    patch.set(**NOT_APPLICABLE)
                elif v == 0:
                    ax.plot(
                        [x - width * 0.45, x + width * 0.45],
                        [0, 0],
                        color=colour,
                        linewidth=3,
                        solid_capstyle="butt",
                        clip_on=False,
                    )
            ax.bar_label(bars, labels[name], fontsize=6, padding=2, rotation=turn)
        ax.set_xticks(
            [g + 0.4 - width / 2 for g in range(len(groups))],
            groups,
            rotation=20,
            ha="right",
            fontsize=7,
        )
        ax.set_ylim(0, 1.2 if turn else 1.1)
        ax.set_ylabel(ylabel)
        ax.set_title(textwrap.fill(title, 70))
        handles += [
            Line2D([], [], color="black", linewidth=3, label="zero: a stroke on the axis"),
            Patch(**NOT_APPLICABLE, label=not_applicable),
        ]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        fig.tight_layout()
        return _svg(fig)


def breakdown(entries: list[Entry], chart: Breakdown, title: str) -> str:
    """The world's breakdown (`Board.breakdown`): a bar per submission per group."""
    per = {e.card.submission_id: chart.groups([r for *_, r in e.runs]) for e in entries}
    groups = sorted({g for got in per.values() for g in got})
    series: dict[str, list[float | None]] = {
        sid: [got[g][0] if g in got else None for g in groups] for sid, got in per.items()
    }
    labels = {
        sid: [(got[g][1] or f"{got[g][0]:.2f}") if g in got else "n/a" for g in groups]
        for sid, got in per.items()
    }
    return _bars(title, groups, series, chart.ylabel, labels, chart.not_applicable)


def _points(ax: Axes, view: View, xs: list[float | None]) -> None:
    """Each row's headline at its x with its 95% CI; a row with no x (a person: no cost) a
    dashed line at its headline."""
    for x, row in zip(xs, view.rows, strict=True):
        colour = COLOURS[row.entry.card.kind]
        if x is None:
            ax.axhspan(row.low, row.high, color=colour, alpha=0.12, linewidth=0)
            ax.axhline(row.mean, color=colour, linestyle="--", linewidth=1)
            continue
        ax.errorbar(
            [x],
            [row.mean],
            yerr=[[row.mean - row.low], [row.high - row.mean]],
            fmt=MARKERS[row.entry.card.kind],
            color=colour,
            capsize=3,
            zorder=2 if row.entry.card.kind == "control" else 3,  # a model over a control
        )


def _labels(ax: Axes, view: View, xs: list[float | None]) -> list[Label]:
    left = ax.get_xlim()[0]
    return [
        Label(_short(row.entry.card.submission_id), x, row.mean)
        if x is not None
        else Label(f"{_short(row.entry.card.submission_id)} (a person: no cost)", left, row.mean)
        for x, row in zip(xs, view.rows, strict=True)
    ]


def _headline_axis(ax: Axes, view: View) -> None:
    head = world_named(view.world).headline
    if head.unit == "%":
        ax.set_ylim(*limits([r.high for r in view.rows] + [1.0], 1.0))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    else:
        ax.set_ylim(*limits([r.low for r in view.rows] + [r.high for r in view.rows], 1.0))
    ax.set_ylabel(head.label + (" ($)" if head.unit == "$" else ""))


def scatter(view: View, chart: Scatter) -> str:
    """The headline (95% CI) against `chart.x` of each submission's runs, each point labelled."""

    def legend(ax: Axes) -> None:
        handles = [
            Line2D([], [], color=COLOURS[k], marker=MARKERS[k], linestyle="", label=KINDS[k])
            for k in sorted({r.entry.card.kind for r in view.rows}, reverse=True)
        ]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))

    xs: list[float | None] = [chart.x([r for *_, r in row.entry.runs]) for row in view.rows]
    title = f"{view.world}: {chart.title}"
    return _headline_plot(view, title, (7.2, 3.8), xs, 1.0, chart.xlabel, legend)
