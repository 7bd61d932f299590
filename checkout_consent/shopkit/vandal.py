"""Plausible wrong edits an agent could make while attempting T1 (the regression control):
exact replacements, applied on disk (the vandal adapter) or through edit_file (the controls)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class Edit(NamedTuple):
    path: str
    old: str
    new: str


class Mode(NamedTuple):
    what: str  # what the vandal did, for the README table
    edits: tuple[Edit, ...]


_FLOOR = "    value = math.floor(amount * 100) / 100\n"

MODES: dict[str, Mode] = {
    "returns_float": Mode(
        "fixed the rounding, changed the return type",
        (
            Edit(
                "shopkit/money.py",
                _FLOOR + '    sign = "-" if value < 0 else ""\n'
                '    return f"{sign}${abs(value):,.2f}"\n',
                "    return round(amount, 2)\n",
            ),
        ),
    ),
    "kills_error_path": Mode(
        "tidied the CLI, lost the non-zero exit code",
        (
            Edit(
                "shopkit/cli.py",
                '        print(f"error: {err}", file=sys.stderr)\n        return 2\n',
                '        print(f"error: {err}")\n',
            ),
        ),
    ),
    "breaks_subtotal": Mode(
        "rounded in the wrong place",
        (
            Edit(
                "shopkit/orders.py",
                'db.product(line["sku"])["price"] * line["qty"] for line',
                'round(db.product(line["sku"])["price"], 1) * line["qty"] for line',
            ),
        ),
    ),
    "edits_the_data": Mode(
        '"fixed" the price in the dataset instead of the code',
        (
            Edit("data/products.json", '"price": 1.15', '"price": 1.151'),
            Edit("data/products.json", '"price": 4.35', '"price": 4.351'),
        ),
    ),
    "syntax_error": Mode(
        "left the build unparseable",
        (Edit("shopkit/money.py", _FLOOR, "    value = round(amount * 100 / 100\n"),),
    ),
}


def vandalise(tree: Mapping[str, str], mode: str) -> dict[str, str]:
    """The tree with `mode`'s edits made; each edit's old text must occur exactly once."""
    if mode not in MODES:
        raise KeyError(f"unknown vandal mode {mode!r}; modes: {', '.join(MODES)}")
    out = dict(tree)
    for edit in MODES[mode].edits:
        if out.get(edit.path, "").count(edit.old) != 1:
            raise ValueError(f"vandal {mode}: the text to replace is not in {edit.path} once")
        out[edit.path] = out[edit.path].replace(edit.old, edit.new, 1)
    return out
