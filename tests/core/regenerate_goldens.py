"""Regenerate every committed file a change to the money-moving worlds' records touches,
with the project's own generators, then check that no score moved:

    python -m tests.core.regenerate_goldens [--world W ...] [--no-readme]

In order: the tests' goldens (`python -m tests.storefront.make_golden`, `python -m
tests.grocery.make_golden`), every cassette's goldens (`checkout-consent replay
cassettes/<world> --write-goldens`: records only, never a cassette's traffic), the example
traces (`python -m tests.core.make_example_traces`), the example submissions (`python -m
checkout_consent.leaderboard.examples --world W`), the board (`checkout-consent
leaderboard build`), the README's real-model results (`python -m
checkout_consent.cli.results`) and its generated tables (`python -m
checkout_consent.cli.readme`). Before and after, every record in every golden file
(tests/core/ap2.py `golden_files`: cassette goldens, the tests' goldens, the example
submissions' logs) is read; every field but the consent ledger and the stamps (`STAMPS`:
the world version, a log's git sha and measured latency) must be equal, and so must each
ledger's verdicts (payment, within, each breach's constraint and party). It prints what it
compared and exits 1 naming any field that moved. Run it after merging new cassettes too:
their goldens are rewritten the same way.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from checkout_consent.families import WORLDS

from . import ap2

REPO = ap2.REPO
# what a regeneration moves by design: the world's version, the checkout's git sha a log's
# records carry, and the wall-clock latency each logged run measured
STAMPS = ("world_version", "suite_git_sha", "latency_s")


def _steady(value: Any) -> Any:
    """`value` without its ledger and version stamps."""
    if isinstance(value, Mapping):
        return {k: _steady(v) for k, v in value.items() if k not in ("consent", *STAMPS)}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def _verdicts(block: Mapping[str, Any]) -> list[Any]:
    return [
        (v["payment_id"], v["within"], [(b["constraint"], b["party"]) for b in v["breaches"]])
        for v in block.get("verdicts", [])
    ]


def _log_scores(path: Path) -> Iterator[tuple[str, Any]]:
    for name, sample in ap2.log_samples(path):
        for scorer, score in sample.get("scores", {}).items():
            kept = {k: score.get(k) for k in ("value", "answer", "metadata")}
            yield f"{name}:{scorer}", kept


def snapshot() -> dict[str, Any]:
    """Every golden file's records: (record without ledger and stamps, verdicts), by where."""
    out: dict[str, Any] = {}
    for path in ap2.golden_files():
        rel = str(path.relative_to(REPO))
        if path.suffix == ".eval":
            scores = dict(_log_scores(path))
            out[rel] = {
                at: (_steady(score), _verdicts(score["metadata"].get("consent", {})))
                for at, score in scores.items()
            }
            continue
        for at, block in ap2.golden_ledgers(path):
            out.setdefault(rel, {})[at] = _verdicts(block)
        out.setdefault(rel, {})["(records)"] = _steady(ap2.read_json(path))
    return out


def _run(*argv: str) -> None:
    print("$", " ".join(argv), flush=True)
    subprocess.run(argv, cwd=REPO, check=True)


def regenerate(worlds: list[str], readme: bool) -> None:
    py = sys.executable
    _run(py, "-m", "tests.storefront.make_golden")
    _run(py, "-m", "tests.grocery.make_golden")
    for name in worlds:
        if (REPO / "cassettes" / name).is_dir():
            _run("checkout-consent", "replay", f"cassettes/{name}", "--write-goldens")
    _run(py, "-m", "tests.core.make_example_traces")
    _run(py, "-m", "checkout_consent.leaderboard.examples", *(f"--world={w}" for w in worlds))
    _run("checkout-consent", "leaderboard", "build")
    _run(py, "-m", "checkout_consent.cli.results")
    if readme:
        _run(py, "-m", "checkout_consent.cli.readme")


def compare(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What moved, one line each (a file's records, a log's scores, or a ledger's verdicts)."""
    moved = []
    for rel in sorted(set(before) | set(after)):
        old, new = before.get(rel), after.get(rel)
        if old is None or new is None:
            moved.append(f"{rel}: {'new' if old is None else 'gone'}")
            continue
        for at in sorted(set(old) | set(new)):
            if old.get(at) != new.get(at):
                moved.append(f"{rel}:{at}: moved")
    return moved


def main() -> int:
    money = [w.name for w in WORLDS if w.moves_money]
    parser = argparse.ArgumentParser(prog="python -m tests.core.regenerate_goldens")
    parser.add_argument("--world", action="append", choices=money, help="only these worlds")
    parser.add_argument("--no-readme", action="store_true", help="skip cli.readme (slow)")
    args = parser.parse_args()
    before = snapshot()
    regenerate(args.world or money, not args.no_readme)
    after = snapshot()
    moved = compare(before, after)
    records = sum(len(v) for v in after.values())
    print(f"compared {len(after)} golden files, {records} records, logs' scores and verdicts")
    for line in moved:
        print("MOVED", line)
    print("no score moved" if not moved else f"{len(moved)} moved")
    return 1 if moved else 0


if __name__ == "__main__":
    raise SystemExit(main())
