"""The generated board, written (or compared) by `leaderboard build [--check]`:
leaderboard/README.md and site/, a static page with its plots (no server, no script, no
external resource)."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

from checkout_consent.families import world_named
from checkout_consent.leaderboard import render
from checkout_consent.leaderboard.board import Row, View, board
from checkout_consent.leaderboard.plots import breakdown, scatter, score_cost
from checkout_consent.runtime.provenance import REPO_ROOT

BOARD = REPO_ROOT / "leaderboard"  # the checkout's (from a wheel: the current directory's)
CSS = """body{font-family:"DejaVu Sans",sans-serif;max-width:1360px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:12px}td{white-space:nowrap}
#consent-meaning td{white-space:normal}
th,td{border:1px solid #ccc;padding:3px 4px;text-align:left;vertical-align:top}
th{background:#eef2f7}span.model-id,span.ci{color:#555;font-size:11px}
tr.control td{color:#666;font-style:italic}figure{margin:1em 0}img{max-width:100%}
code{font-family:"DejaVu Sans Mono",monospace;background:#f3f3f3;padding:0 3px;
white-space:nowrap}"""
LONG_ID = 48  # a model id longer than this shows its provider path on a line of its own
HUMAN_CSS = "tr.human td{background:#fff7e0}tr.human td:first-child{font-weight:bold}"


def rendered(root: Path = BOARD, rank_humans: bool = False) -> dict[str, str]:
    """Relative path (under `root`) -> content of every generated file."""
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
        body += [
            f"<section><h2>{html.escape(render.heading(view))}</h2>",
            html_table(view),
            f"<p>{inline(render.pass_rule(view))}</p>",
            *(f"<p>{inline(n)}</p>" for n in render.notes(view)),
            f'<figure><img src="{name}" alt="{html.escape(render.heading(view))}: score '
            'against cost"></figure>',
        ]
        for path, svg, alt in _extras(view):
            out[path] = svg
            body.append(f'<figure><img src="{path}" alt="{html.escape(alt)}"></figure>')
        body.append("</section>")
    humans = HUMAN_CSS if any(render.human_note(v) for v in views) else ""  # only where needed
    out["index.html"] = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>checkout-consent leaderboard</title>"
        f"<style>{CSS}{humans}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
    return out


def _extras(view: View) -> list[tuple[str, str, str]]:
    """The world's own plots (`Board.breakdown`, `Board.scatter`): (path, SVG, alt text)."""
    own, out = world_named(view.world).board, []
    entries, slug = [r.entry for r in view.rows], render.slug(view)
    if own.breakdown is not None and entries:
        title = f"{view.world}: {own.breakdown.title}"
        out.append((f"plots/{slug}-breakdown.svg", breakdown(entries, own.breakdown, title), title))
    if own.scatter is not None:  # drawn when empty too: it says "no submissions yet"
        title = f"{view.world}: {own.scatter.title}"
        out.append((f"plots/{slug}-scatter.svg", scatter(view, own.scatter), title))
    return out


def html_table(view: View) -> str:
    """The view's table for the page, its cells broken into lines to fit 1400 px."""
    heads = render.shown(view, render.columns(view))
    named = [heads[0], f"{heads[1]} / {heads[2]}", *heads[3:]]
    cols = "".join(f"<th>{html.escape(c)}</th>" for c in named)
    body = [_html_row(view, row, heads) for row in view.rows]
    if not body:
        body.append(f'<tr><td colspan="{len(named)}">no submissions yet</td></tr>')
    return (
        f'<table id="{html.escape(render.slug(view))}"><thead><tr>{cols}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _html_row(view: View, row: Row, heads: list[str]) -> str:
    e = row.entry
    c = [html.escape(x) for x in render.shown(view, render.cells(row, render.has_gap(view)))]
    if e.partial is not None:
        c[0] = f"partial<br>{e.partial[0]} of {e.partial[1]} runs"
    model = html.escape(render.model_label(dataclasses.replace(e, partial=None)))
    # the protocol under the model id: the widest table stays inside 1400 px
    model = re.sub(r" \((own|adapted) template\)", r"<br>(\1 template)", model)
    provider, slash, name = e.card.model.id.rpartition("/")
    if provider and len(e.card.model.id) > LONG_ID:  # the provider's path over the name
        model = model.replace(
            html.escape(e.card.model.id), f"{html.escape(provider)}/<br>{html.escape(name)}", 1
        )
    who = f'<a href="../{html.escape(e.path)}/">{c[1]}</a><br><span class="model-id">{model}</span>'
    figures = [
        x.replace(" (", '<br><span class="ci">(', 1) + "</span>"
        if "(95% CI)" in h and " (" in x
        else x
        for h, x in zip(heads[3:], c[3:], strict=True)
    ]
    tds = "".join(f"<td>{x}</td>" for x in [c[0], who, *figures])
    return f'<tr class="{e.card.kind}">{tds}</tr>'
