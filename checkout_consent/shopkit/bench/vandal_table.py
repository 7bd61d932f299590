"""Regenerate the vandal table of the family README by executing every vandal mode.

    python -m checkout_consent.shopkit.bench.vandal_table          # rewrite the README table
    python -m checkout_consent.shopkit.bench.vandal_table --check  # fail if it is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from checkout_consent.shopkit.bench import adapters
from checkout_consent.shopkit.bench.runs import require_sanity, run_once
from checkout_consent.shopkit.vandal import MODES

README = Path(__file__).parent.parent / "README.md"
BEGIN, END = "<!-- vandal-table:begin -->", "<!-- vandal-table:end -->"
TASK = "T1"  # the vandals are plausible wrong attempts at T1


def rows() -> list[tuple[str, str, float, int, int, float]]:
    """(mode, what it did, regress, broken, regress total, T1 change) for noop and each mode."""
    out = []
    plans = [("(noop)", "nothing", adapters.noop)] + [
        (f"`{m}`", mode.what, adapters.vandal(m)) for m, mode in MODES.items()]
    for label, what, adapter in plans:
        report = run_once(TASK, adapter).report
        out.append((label, what, report.regress, report.broken,
                    len(report.regress_assertions), report.change))
    return out


def table() -> str:
    lines = ["| vandal mode | what it did | `regress` | assertions broken | T1 `change` |",
             "|---|---|---|---|---|"]
    for label, what, regress, broken, total, change in rows():
        lines.append(f"| {label} | {what} | {regress:.4f} | {broken} of {total} | "
                     f"{change:.4f} |")
    return "\n".join(lines)


def splice(text: str, body: str) -> str:
    head, found, rest = text.partition(BEGIN)
    _, found_end, tail = rest.partition(END)
    if not found or not found_end:
        raise ValueError(f"{README} lacks the {BEGIN} ... {END} markers")
    return f"{head}{BEGIN}\n{body}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the README is out of date")
    args = ap.parse_args(argv)
    require_sanity()
    text = README.read_text(encoding="utf-8")
    fresh = splice(text, table())
    if args.check:
        if fresh != text:
            print("the vandal table in the README is out of date", file=sys.stderr)
            return 1
        return 0
    README.write_text(fresh, encoding="utf-8")
    print(table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
