"""`consent LOG`: a log's consent ledgers, re-graded by this checkout (stored scores are
never read): the breach rate, then each sample's breaches, mandates, payments and verdicts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from checkout_consent.core.consent import NO_MONEY
from checkout_consent.core.consent_lines import ledger_lines
from checkout_consent.core.summary import consent_line
from checkout_consent.families import WORLDS


def _sample(record: dict[str, Any] | None, failure: str | None) -> dict[str, Any]:
    if record is None:
        return {"failure": failure}
    return {"consent": record.get("consent")}


def cmd_consent(args: argparse.Namespace) -> int:
    from checkout_consent.runtime.regrade import regrade_log  # Inspect: only when it runs

    verdict = regrade_log(args.log, WORLDS)
    world = next((w for w in WORLDS if w.world_version == verdict.world_version), None)
    if world is None:
        raise ValueError(f"{args.log}: world {verdict.world_version[:60]!r} is not this suite's")
    records = [s.record for s in verdict.samples if s.record is not None]
    rate = consent_line(world, records)
    if args.json:
        samples = [
            {"id": s.id, "epoch": s.epoch, **_sample(s.record, s.failure)} for s in verdict.samples
        ]
        out = {"log": verdict.path, "world_version": verdict.world_version, "breach_rate": rate}
        print(json.dumps({**out, "samples": samples}, indent=1))
        return 0 if verdict.ok else 1
    print(f"{verdict.path}: {verdict.world_version}; {rate}")
    for s in verdict.samples:
        print(f"\n{s.id} epoch {s.epoch}")
        if s.record is None:
            print(f"  not graded: {s.failure}")
        elif not isinstance(s.record.get("consent"), dict):
            print(f"  {NO_MONEY}" if not world.moves_money else "  no consent ledger")
        else:
            print("\n".join("  " + line for line in ledger_lines(s.record["consent"])))
    return 0 if verdict.ok else 1


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "consent", help="a log's consent ledgers: mandates, payments, verdicts, breach rate"
    )
    p.add_argument("log", help="an Inspect .eval log of a suite task")
    p.add_argument("--json", action="store_true", help="the ledgers as JSON (AP2 field names)")
    p.set_defaults(fn=cmd_consent)
