"""The static page, leaderboard/site/index.html, and its plot files: no server, no script,
no external resource; opened straight from the file system."""

from __future__ import annotations

import html
import re

from checkout_consent.families import member, world
from checkout_consent.leaderboard import plots
from checkout_consent.leaderboard.board import View, passed_note
from checkout_consent.leaderboard.render import (
    GENERATED,
    SUITE_HEADING,
    consent_note,
    heading,
    html_table,
    human_note,
    note,
    partial_note,
    slug,
    suite_html,
    suite_note,
)

CSS = """body{font-family:"DejaVu Sans",sans-serif;max-width:1360px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px}td.ci{white-space:nowrap}
th,td{border:1px solid #ccc;padding:3px 5px;text-align:left}th{background:#eef2f7}
tr.control td{color:#666;font-style:italic}figure{margin:1em 0}img{max-width:100%}
code{font-family:"DejaVu Sans Mono",monospace;background:#f3f3f3;padding:0 3px;
white-space:nowrap}"""
HUMAN_CSS = "tr.human td{background:#fff7e0}tr.human td:first-child{font-weight:bold}"


def _human_css(views: list[View]) -> str:
    """The human rows' style, only on a board that has them (the others stay as they were)."""
    return HUMAN_CSS if any(human_note(v) for v in views) else ""


def inline(text: str) -> str:
    """Plain text with Markdown's inline code (`...`) as HTML: escaped, `x` -> <code>x</code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def files(views: list[View]) -> dict[str, str]:
    """Relative path (under site/) -> content, for the page and every plot."""
    out: dict[str, str] = {}
    body = [f"<h1>checkout-consent leaderboard</h1><p>{inline(GENERATED)}</p>"]
    nav = f'<li><a href="#consent">{html.escape(SUITE_HEADING)}</a></li>' + "".join(
        f'<li><a href="#{slug(v)}">{html.escape(heading(v))}</a></li>' for v in views
    )
    body.append(f"<nav><ul>{nav}</ul></nav>")
    body.append(
        f"<section><h2>{html.escape(SUITE_HEADING)}</h2>{suite_html(views)}"
        f"<p>{inline(suite_note(views))}</p></section>"
    )
    for view in views:
        name = f"plots/{slug(view)}-score-cost.svg"
        out[name] = plots.score_cost(view)
        body += [
            f"<section><h2>{html.escape(heading(view))}</h2>",
            html_table(view),
            f"<p>pass^k counts a run as passed when: {inline(passed_note(view.world))}.</p>",
            *([f"<p>{inline(note(view))}</p>"] if note(view) else []),
            *([f"<p>{inline(consent_note(view))}</p>"] if consent_note(view) else []),
            *([f"<p>{inline(human_note(view))}</p>"] if human_note(view) else []),
            *([f"<p>{inline(partial_note(view))}</p>"] if partial_note(view) else []),
            f'<figure><img src="{name}" alt="{html.escape(heading(view))}: score '
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
    board, out = member(world(view.world)).board, []
    entries = [r.entry for r in view.rows]
    if board.breakdown is not None and entries:
        title = f"{view.world}: {board.breakdown.title}"
        svg = plots.breakdown(entries, board.breakdown, title)
        out.append((f"plots/{slug(view)}-breakdown.svg", svg, title))
    if board.scatter is not None:  # drawn when empty too: it says "no submissions yet"
        title = f"{view.world}: {board.scatter.title}"
        out.append((f"plots/{slug(view)}-scatter.svg", plots.scatter(view, board.scatter), title))
    return out
