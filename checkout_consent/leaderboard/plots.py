"""The board's plots, drawn with matplotlib as SVG, byte-identical build to build: a bundled
font (DejaVu Sans), glyphs as paths, a fixed SVG hash salt, no date or creator metadata."""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from checkout_consent.leaderboard.adapter import Breakdown  # noqa: E402
from checkout_consent.leaderboard.board import View  # noqa: E402
from checkout_consent.leaderboard.entries import Entry  # noqa: E402
from checkout_consent.leaderboard.headline import headline  # noqa: E402

STYLE: Any = {"svg.hashsalt": "checkout-consent-board", "svg.fonttype": "path",
         "font.family": "DejaVu Sans", "font.size": 9, "path.simplify": False}
COLOURS = {"model": "#1f5fa8", "control": "#8a8a8a"}


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches=None)
    plt.close(fig)
    return out.getvalue()


def score_cost(view: View) -> str:
    """Headline (with its 95% CI as error bars) against normalized cost, one point a row."""
    head = headline(view.family)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        for row in view.rows:
            kind = row.entry.card.kind
            ax.errorbar([row.entry.cost_normalized], [row.mean],
                        yerr=[[row.mean - row.low], [row.high - row.mean]], fmt="o",
                        color=COLOURS[kind], capsize=3)
            ax.annotate(row.entry.card.submission_id, (row.entry.cost_normalized, row.mean),
                        textcoords="offset points", xytext=(5, 4), fontsize=7)
        ax.set_xlabel("cost at normalized rates (USD, whole submission)")
        ax.set_ylabel(head.label + (" ($)" if head.unit == "$" else ""))
        ax.set_title(f"{view.family}{': ' + view.title if view.title else ''}: "
                     "score against cost (grey: controls)")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        return _svg(fig)


def _bars(title: str, groups: list[str], series: dict[str, list[float]], ylabel: str,
          labels: dict[str, list[str]] | None = None) -> str:
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7.2, 3.8))
        width = 0.8 / max(1, len(series))
        for i, (name, values) in enumerate(series.items()):
            bars = ax.bar([g + i * width for g in range(len(groups))], values, width, label=name)
            if labels is not None:
                ax.bar_label(bars, labels[name], fontsize=6, padding=1)
        ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))], groups, rotation=20,
                      ha="right", fontsize=7)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        fig.tight_layout()
        return _svg(fig)


def breakdown(entries: list[Entry], spec: Breakdown) -> str:
    """The family's breakdown (`Board.breakdown`): a value per group, one bar per
    submission, labelled where the family gives a label (a group a submission lacks is
    drawn at 0)."""
    per = {e.card.submission_id: spec.groups([r for *_, r in e.runs]) for e in entries}
    groups = sorted({g for got in per.values() for g in got})
    series = {sid: [got[g][0] if g in got else 0.0 for g in groups] for sid, got in per.items()}
    labels = {sid: [(got[g][1] or "") if g in got else "" for g in groups]
              for sid, got in per.items()}
    shown = labels if any(x for row in labels.values() for x in row) else None
    return _bars(spec.title, groups, series, spec.ylabel, shown)
