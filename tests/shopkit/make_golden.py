"""Regenerate tests/shopkit/golden.json by executing the code:
`python -m tests.shopkit.make_golden`.

The golden file pins what changes results (the seed, the reference, the briefs and every
assertion, as a fingerprint) to the world version, with the grades they give. A change to
any of them fails the golden test until VERSION (shopkit/grader.py) is bumped and this is re-run."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from checkout_consent.runtime.files import tasks_dir
from checkout_consent.shopkit import WORLD
from checkout_consent.shopkit.assertions import CHANGE, REGRESS, REGRESS_EXTRA
from checkout_consent.shopkit.controls.vandal_table import rows
from checkout_consent.shopkit.dataset import build_tree
from checkout_consent.shopkit.grading import grade_build, reference_dir, seed_dir

GOLDEN = Path(__file__).with_name("golden.json")


def fingerprint() -> str:
    rules = {
        "seed": build_tree("seed"),
        "reference": build_tree("reference"),
        "tasks": (tasks_dir("shopkit") / "tasks.yaml").read_text(encoding="utf-8"),
        "change": {t: [p._asdict() for p in ps] for t, ps in CHANGE.items()},
        "regress": [p._asdict() for p in REGRESS],
        "regress_extra": [p._asdict() for p in REGRESS_EXTRA],
    }
    return hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()


def compute() -> dict[str, Any]:
    grades = {
        f"{name} {task}": [report.change, report.regress, report.regress_extra]
        for name, build in (("seed", seed_dir()), ("reference", reference_dir()))
        for task in CHANGE
        for report in [grade_build(build, task)]
    }
    vandals = {r.label: [r.regress, r.broken, r.extra_broken, r.change] for r in rows()}
    return {
        "world_version": WORLD.world_version,
        "fingerprint": fingerprint(),
        "grades": grades,
        "vandals_on_T1": vandals,
    }


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(compute(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
