"""The board's plots, drawn with matplotlib as SVG, byte-identical build to build: a bundled
font (DejaVu Sans), glyphs as paths, a fixed SVG hash salt, no date or creator metadata.

Axes start at zero for quantities that cannot be negative (a 0.05-cent cost difference
must not fill the plot), every label stays inside the figure, an empty view says so, and a
bar that is zero is drawn differently from one that does not apply."""

from __future__ import annotations

import io
import textwrap
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter  # noqa: E402

from checkout_consent.core.money import fmt_dollars  # noqa: E402
from checkout_consent.leaderboard.adapter import Breakdown, Scatter  # noqa: E402
from checkout_consent.leaderboard.board import View  # noqa: E402
from checkout_consent.leaderboard.entries import Entry  # noqa: E402
from checkout_consent.leaderboard.headline import headline  # noqa: E402

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
LABEL_CHARS = 40  # a submission id whole (`model-adversary_v1-qwen-coder-0.5b` is 34)


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches=None)
    plt.close(fig)
    return out.getvalue()


def _short(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def limits(values: list[float], min_span: float) -> tuple[float, float]:
    """Axis limits that include zero, span at least `min_span`, padded at both ends so a
    point on zero or at the top is drawn whole."""
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


def _label(ax: Axes, text: str, x: float, y: float, below: bool = False) -> None:
    """The point's label, on the side of the point that keeps it inside the axes (`below`:
    under the point, where a label above would overlap a neighbour's)."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    left = (x - x0) > 0.55 * (x1 - x0)
    high = below or (y - y0) > 0.85 * (y1 - y0)
    ax.annotate(
        _short(text),
        (x, y),
        textcoords="offset points",
        fontsize=7,
        xytext=(-6 if left else 6, -5 if high else 4),
        ha="right" if left else "left",
        va="top" if high else "bottom",
    )


def score_cost(view: View) -> str:
    """Headline (with its 95% CI as error bars) against normalized cost, one point a row."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        ax.set_title(
            textwrap.fill(
                f"{view.world}{': ' + view.title if view.title else ''}: "
                "score against cost (grey: controls)",
                70,
            )
        )
        if not view.rows:
            _empty(ax)
            fig.tight_layout()
            return _svg(fig)
        costs = [r.entry.cost_normalized for r in view.rows]
        ax.set_xlim(*limits(costs, MIN_COST_SPAN))
        _headline_axis(ax, view)
        ax.xaxis.set_major_locator(MaxNLocator(6))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt_dollars(v)))
        _points(ax, view, costs)
        ax.set_xlabel("cost at normalized rates (USD, whole submission)")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        return _svg(fig)


def _bars(
    title: str,
    groups: list[str],
    series: dict[str, list[float | None]],
    ylabel: str,
    labels: dict[str, list[str]],
    not_applicable: str,
) -> str:
    """Grouped bars on a 0-1 axis; None is drawn as a hatched placeholder, zero as a
    stroke on the axis in the series' colour, each named in the legend."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7.2, 3.8))
        width = 0.8 / max(1, len(series))
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
            ax.bar_label(bars, labels[name], fontsize=6, padding=2)
        ax.set_xticks(
            [g + 0.4 - width / 2 for g in range(len(groups))],
            groups,
            rotation=20,
            ha="right",
            fontsize=7,
        )
        ax.set_ylim(0, 1.1)
        ax.set_ylabel(ylabel)
        ax.set_title(textwrap.fill(title, 70))
        handles += [
            Line2D([], [], color="black", linewidth=3, label="zero: a stroke on the axis"),
            Patch(**NOT_APPLICABLE, label=not_applicable),
        ]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        fig.tight_layout()
        return _svg(fig)


def breakdown(entries: list[Entry], spec: Breakdown, title: str) -> str:
    """The world's breakdown (`Board.breakdown`): a value per group, one bar per
    submission, labelled as the world labels it; a group a submission never met is not
    applicable: drawn hatched, labelled n/a."""
    per = {e.card.submission_id: spec.groups([r for *_, r in e.runs]) for e in entries}
    groups = sorted({g for got in per.values() for g in got})
    series: dict[str, list[float | None]] = {
        sid: [got[g][0] if g in got else None for g in groups] for sid, got in per.items()
    }
    labels = {
        sid: [(got[g][1] or f"{got[g][0]:.2f}") if g in got else "n/a" for g in groups]
        for sid, got in per.items()
    }
    return _bars(title, groups, series, spec.ylabel, labels, spec.not_applicable)


def _points(ax: Axes, view: View, xs: list[float]) -> None:
    """Each row's headline at its x, with its 95% CI as error bars, labelled with its
    submission id; a control grey and square, a model blue and round. A label whose point
    sits near an earlier labelled one (within 6% of the height and 40% of the width) goes
    under its point, so two labels never print over each other there."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    placed: list[tuple[float, float, bool]] = []
    for x, row in zip(xs, view.rows, strict=True):
        kind = row.entry.card.kind
        ax.errorbar(
            [x],
            [row.mean],
            yerr=[[row.mean - row.low], [row.high - row.mean]],
            fmt=MARKERS[kind],
            color=COLOURS[kind],
            capsize=3,
        )
        near = [
            b
            for px, py, b in placed
            if abs(px - x) < 0.4 * (x1 - x0) and abs(py - row.mean) < 0.06 * (y1 - y0)
        ]
        below = bool(near) and not near[-1]
        _label(ax, row.entry.card.submission_id, x, row.mean, below)
        placed.append((x, row.mean, below))


def _headline_axis(ax: Axes, view: View) -> None:
    """The y axis of the world's headline with its intervals: from zero (a share: 0% to
    100%), spanning every interval, labelled with the headline and its unit."""
    head = headline(view.world)
    if head.unit == "%":
        ax.set_ylim(*limits([r.high for r in view.rows] + [1.0], 1.0))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    else:
        ax.set_ylim(*limits([r.low for r in view.rows] + [r.high for r in view.rows], 1.0))
    ax.set_ylabel(head.label + (" ($)" if head.unit == "$" else ""))


def scatter(view: View, spec: Scatter) -> str:
    """The headline (95% CI as error bars) against `spec.x` of each submission's runs, one
    point per submission; controls drawn grey and square, each point labelled."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7.2, 3.8))
        ax.set_title(textwrap.fill(f"{view.world}: {spec.title}", 70))
        if not view.rows:
            _empty(ax)
            fig.tight_layout()
            return _svg(fig)
        xs = [spec.x([r for *_, r in row.entry.runs]) for row in view.rows]
        ax.set_xlim(*limits(xs, 1.0))
        _headline_axis(ax, view)
        _points(ax, view, xs)
        handles = [
            Line2D([], [], color=COLOURS[k], marker=MARKERS[k], linestyle="", label=KINDS[k])
            for k in sorted({r.entry.card.kind for r in view.rows}, reverse=True)
        ]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.set_xlabel(spec.xlabel)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        return _svg(fig)
