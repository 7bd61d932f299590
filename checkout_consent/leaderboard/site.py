"""The generated board, written (or compared) by `leaderboard build [--check]`:
leaderboard/README.md (`render.markdown`) and site/, a static page (index.html) with its
plots: no server, no script, no external resource; opened straight from the file system.

The plots are drawn with matplotlib as SVG, byte-identical build to build: a bundled font
(DejaVu Sans), glyphs as paths, a fixed SVG hash salt, no date or creator metadata. Axes
start at zero for quantities that cannot be negative (a 0.05-cent cost difference must not
fill the plot), every label stays inside the figure, an empty view says so, and a bar that
is zero is drawn differently from one that does not apply."""

from __future__ import annotations

import html
import io
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
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
from checkout_consent.core.presentation import Breakdown, Scatter  # noqa: E402
from checkout_consent.families import world  # noqa: E402
from checkout_consent.leaderboard import render  # noqa: E402
from checkout_consent.leaderboard.board import Entry, View, board  # noqa: E402
from checkout_consent.runtime.provenance import REPO_ROOT  # noqa: E402

BOARD = REPO_ROOT / "leaderboard"  # the checkout's (from a wheel: the current directory's)
CSS = """body{font-family:"DejaVu Sans",sans-serif;max-width:1360px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px}td.ci{white-space:nowrap}
th,td{border:1px solid #ccc;padding:3px 5px;text-align:left}th{background:#eef2f7}
tr.control td{color:#666;font-style:italic}figure{margin:1em 0}img{max-width:100%}
code{font-family:"DejaVu Sans Mono",monospace;background:#f3f3f3;padding:0 3px;
white-space:nowrap}"""
HUMAN_CSS = "tr.human td{background:#fff7e0}tr.human td:first-child{font-weight:bold}"
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


def rendered(root: Path = BOARD, rank_humans: bool = False) -> dict[str, str]:
    """Relative path (under `root`) -> content of every generated file (`rank_humans`: a
    reader's build that ranks people's rows with the models')."""
    views = board(root / "submissions", rank_humans)
    out = {"README.md": render.markdown(views)}
    out |= {f"site/{name}": text for name, text in files(views).items()}
    return out


def stale(root: Path = BOARD) -> list[str]:
    """Generated files that are missing, differ, or are left over from an older build."""
    want = rendered(root)
    have = {p.relative_to(root).as_posix() for p in (root / "site").rglob("*") if p.is_file()}
    out = [
        n
        for n, text in sorted(want.items())
        if not (root / n).is_file() or (root / n).read_text() != text
    ]
    return out + sorted(have - want.keys())


def write(root: Path = BOARD, rank_humans: bool = False) -> list[str]:
    """Write every generated file, remove leftovers; return what was written."""
    want = rendered(root, rank_humans)
    for leftover in (p for p in (root / "site").rglob("*") if p.is_file()):
        if leftover.relative_to(root).as_posix() not in want:
            leftover.unlink()
    for name, text in want.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return sorted(want)


def _human_css(views: list[View]) -> str:
    """The human rows' style, only on a board that has them (the others stay as they were)."""
    return HUMAN_CSS if any(render.human_note(v) for v in views) else ""


def inline(text: str) -> str:
    """Plain text with Markdown's inline code (`...`) as HTML: escaped, `x` -> <code>x</code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def files(views: list[View]) -> dict[str, str]:
    """Relative path (under site/) -> content, for the page and every plot."""
    out: dict[str, str] = {}
    body = [f"<h1>checkout-consent leaderboard</h1><p>{inline(render.GENERATED)}</p>"]
    nav = f'<li><a href="#consent">{html.escape(render.SUITE_HEADING)}</a></li>' + "".join(
        f'<li><a href="#{render.slug(v)}">{html.escape(render.heading(v))}</a></li>' for v in views
    )
    body.append(f"<nav><ul>{nav}</ul></nav>")
    body.append(
        f"<section><h2>{html.escape(render.SUITE_HEADING)}</h2>{render.suite_html(views)}"
        f"<p>{inline(render.suite_note(views))}</p></section>"
    )
    for view in views:
        name = f"plots/{render.slug(view)}-score-cost.svg"
        out[name] = score_cost(view)
        passed = world(view.world).headline.passed_means
        body += [
            f"<section><h2>{html.escape(render.heading(view))}</h2>",
            render.html_table(view),
            f"<p>pass^k counts a run as passed when: {inline(passed)}.</p>",
            *(f"<p>{inline(n)}</p>" for n in render.notes(view)),
            f'<figure><img src="{name}" alt="{html.escape(render.heading(view))}: score '
            'against cost"></figure>',
        ]
        for path, svg, alt in _extras(view):
            out[path] = svg
            body.append(f'<figure><img src="{path}" alt="{html.escape(alt)}"></figure>')
        body.append("</section>")
    out["index.html"] = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>checkout-consent leaderboard</title>"
        f"<style>{CSS}{_human_css(views)}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
    return out


def _extras(view: View) -> list[tuple[str, str, str]]:
    """The world's own plots (`Board.breakdown`, `Board.scatter`): (path, SVG, alt text)."""
    own, out = world(view.world).board, []
    entries, slug = [r.entry for r in view.rows], render.slug(view)
    if own.breakdown is not None and entries:
        title = f"{view.world}: {own.breakdown.title}"
        out.append((f"plots/{slug}-breakdown.svg", breakdown(entries, own.breakdown, title), title))
    if own.scatter is not None:  # drawn when empty too: it says "no submissions yet"
        title = f"{view.world}: {own.scatter.title}"
        out.append((f"plots/{slug}-scatter.svg", scatter(view, own.scatter), title))
    return out


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


def _headline_plot(
    view: View,
    title: str,
    size: tuple[float, float],
    xs: list[float],
    min_span: float,
    xlabel: str,
    dress: Callable[[Axes], None],
) -> str:
    """The headline (95% CI as error bars) against `xs`, one labelled point per row, on an
    x axis from zero spanning at least `min_span`; `dress` adds the plot's own parts. An
    empty view says so."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=size)
        ax.set_title(textwrap.fill(title, 70))
        if not view.rows:
            _empty(ax)
        else:
            ax.set_xlim(*limits(xs, min_span))
            _headline_axis(ax, view)
            _points(ax, view, xs)
            dress(ax)
            ax.set_xlabel(xlabel)
            ax.grid(True, alpha=0.3)
        fig.tight_layout()
        return _svg(fig)


def score_cost(view: View) -> str:
    """Headline (with its 95% CI as error bars) against normalized cost, one point a row."""

    def dollars(ax: Axes) -> None:
        ax.xaxis.set_major_locator(MaxNLocator(6))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt_dollars(v)))

    title = f"{render.heading(view)}: score against cost (grey: controls)"
    costs = [r.entry.cost_normalized for r in view.rows]
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
    head = world(view.world).headline
    if head.unit == "%":
        ax.set_ylim(*limits([r.high for r in view.rows] + [1.0], 1.0))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    else:
        ax.set_ylim(*limits([r.low for r in view.rows] + [r.high for r in view.rows], 1.0))
    ax.set_ylabel(head.label + (" ($)" if head.unit == "$" else ""))


def scatter(view: View, spec: Scatter) -> str:
    """The headline (95% CI as error bars) against `spec.x` of each submission's runs, one
    point per submission; controls drawn grey and square, each point labelled."""

    def legend(ax: Axes) -> None:
        handles = [
            Line2D([], [], color=COLOURS[k], marker=MARKERS[k], linestyle="", label=KINDS[k])
            for k in sorted({r.entry.card.kind for r in view.rows}, reverse=True)
        ]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))

    xs = [spec.x([r for *_, r in row.entry.runs]) for row in view.rows]
    title = f"{view.world}: {spec.title}"
    return _headline_plot(view, title, (7.2, 3.8), xs, 1.0, spec.xlabel, legend)
