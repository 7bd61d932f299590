"""A tool's result as a person reads it: JSON as tables and lists, other text as it is; the
exact text the agent receives is one click away beneath it, never replaced."""

from __future__ import annotations

import json
from html import escape
from typing import Any

MAX_ROWS = 200  # rows one table shows; the raw text beneath it holds the rest
DEPTH = 3  # nesting shown as tables; deeper values as compact JSON


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return escape(value)
    return f"<code>{escape(json.dumps(value))}</code>"


def _cell(value: Any, depth: int) -> str:
    if isinstance(value, dict | list) and not value:
        return '<span class="none">(none)</span>'
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return escape(", ".join(value))  # a list of words reads as one line
    if isinstance(value, dict | list) and depth < DEPTH:
        return _block(value, depth + 1)
    if isinstance(value, dict | list):
        return f"<code>{escape(json.dumps(value, ensure_ascii=False))}</code>"
    return _scalar(value)


def _rows_table(items: list[dict[str, Any]], depth: int) -> str:
    keys: list[str] = []
    for item in items:
        keys += [k for k in item if k not in keys]
    head = "".join(f'<th scope="col">{escape(k)}</th>' for k in keys)
    rows = "".join(
        "<tr>" + "".join(f"<td>{_cell(item.get(k, ''), depth)}</td>" for k in keys) + "</tr>"
        for item in items[:MAX_ROWS]
    )
    more = len(items) - MAX_ROWS
    note = f"<p>... and {more} more (in the raw text)</p>" if more > 0 else ""
    count = f"<caption>{len(items)} item(s)</caption>" if depth == 0 else ""
    return f'<div class="scroll"><table>{count}<tr>{head}</tr>{rows}</table></div>{note}'


def _record_table(record: dict[str, Any], depth: int) -> str:
    rows = "".join(
        f'<tr><th scope="row">{escape(k)}</th><td>{_cell(v, depth)}</td></tr>'
        for k, v in record.items()
    )
    return f'<div class="scroll"><table class="record">{rows}</table></div>'


def _block(value: Any, depth: int) -> str:
    if isinstance(value, dict):
        return _record_table(value, depth)
    if value and all(isinstance(v, dict) for v in value):
        return _rows_table(value, depth)
    return "<ul>" + "".join(f"<li>{_cell(v, depth)}</li>" for v in value) + "</ul>"


def result_html(text: str) -> str:
    """The tool result `text` for the page: readable, with the raw text beneath."""
    raw = f"<pre>{escape(text)}</pre>"
    try:
        value = json.loads(text)
    except ValueError:
        return raw
    if not isinstance(value, dict | list) or not value:
        return raw
    return (
        f"{_block(value, 0)}<details><summary>The text the agent receives</summary>{raw}</details>"
    )
