"""Every consent ledger the suite emits, audited as an AP2 implementer would (tests/core/
ap2.py): each open Payment Mandate, closed Checkout Mandate and closed Payment Mandate
valid against AP2 v0.2's own JSON Schemas, copied verbatim (`ap2_schemas/`), and every
payment bound by `transaction_id` to a closed Checkout Mandate of its own ledger: every
committed golden's ledger, and fresh ledgers of every money-moving world's controls."""

from __future__ import annotations

import copy
import functools
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from checkout_consent.core.encoding import digest
from checkout_consent.core.ledger import Ledger
from checkout_consent.core.offline import play_and_grade
from checkout_consent.families import WORLDS

from . import ap2

OLD = json.loads((ap2.HERE / "ap2_old_ledgers.json").read_text(encoding="utf-8"))


def _blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_ap2_schema__the_copies_are_ap2s_files_byte_for_byte():
    readme = (ap2.SCHEMAS / "README.md").read_text(encoding="utf-8")
    assert ap2.AP2_COMMIT in readme
    files = sorted(p.relative_to(ap2.SCHEMAS).as_posix() for p in ap2.SCHEMAS.rglob("*.json"))
    assert files, "the copied schemas"
    for name in files:
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{name}` |"))
        assert f"`code/sdk/schemas/ap2/{name}`" in row
        assert f"`{_blob((ap2.SCHEMAS / name).read_bytes())}`" in row, name
        schema = json.loads((ap2.SCHEMAS / name).read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(ap2.OBJECTS.values()) <= set(files)


def _one_of_each(files: list[Path]) -> list[Path]:
    """The first and the last file of each kind (a cassette's golden, a test's golden, an
    example submission's log, its cassette's golden) in each world's folder."""
    groups: dict[tuple[object, ...], list[Path]] = {}
    for path in files:
        rel = path.relative_to(ap2.REPO).parts
        world = rel[2] if rel[0] == "leaderboard" else rel[1]
        groups.setdefault((rel[0], "cassettes" in rel[1:], path.suffix, world), []).append(path)
    return sorted({p for group in groups.values() for p in (group[0], group[-1])})


def test_ap2_schema__a_committed_golden_ledger_of_each_kind_and_world_is_valid():
    """Every kind of committed golden of every world; the slow layer reads all of them
    (test_ap2_schema__every_committed_golden_ledger_is_valid: the same emitter's ledgers)."""
    files = ap2.golden_files()
    picked = _one_of_each(files)
    assert len(picked) < len(files) / 5  # the default run reads a sample
    _valid_goldens(picked)


@pytest.mark.slow  # the default run reads the first and last of each kind and world (above)
def test_ap2_schema__every_committed_golden_ledger_is_valid():
    files = ap2.golden_files()
    assert len(files) > 200, "the committed goldens"
    _valid_goldens(files)


def _valid_goldens(files: list[Path]) -> None:
    seen: Counter[str] = Counter()
    signed: Counter[str] = Counter()
    for path in files:
        for where, block in ap2.golden_ledgers(path):
            problem = ap2.first_problem(block)
            assert problem is None, f"{where}: {problem}"
            seen.update(ap2.counts(block))
            signed.update(c["signed_by"] for c in block["checkouts"])
    assert all(seen[kind] > 0 for kind in ap2.OBJECTS), seen
    # storefront v0's hidden fees are the counterparty's own charges (signed by nobody);
    # no recorded run pays with the owner's approval (tests/storefront_v1 plays one)
    assert {"agent", "nobody"} <= set(signed) <= {"principal", "agent", "nobody"}, signed


@functools.cache
def _control_ledgers() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for w in (w for w in WORLDS if w.moves_money):
        task = w.dataset.tasks()[0]
        for name, policy in w.controls.items():
            record = play_and_grade(w, w.dataset.task(task), policy)
            out.append((f"{w.name} {name} {task}", record["consent"]))
    return out


def test_ap2_schema__every_worlds_controls_emit_valid_bound_ledgers():
    ledgers = _control_ledgers()
    assert {where.split()[0] for where, _ in ledgers} == {w.name for w in WORLDS if w.moves_money}
    for where, block in ledgers:
        assert ap2.first_problem(block) is None, (where, ap2.first_problem(block))


def test_ap2_schema__a_payment_naming_no_checkout_of_its_ledger_fails():
    where, block = next((w, b) for w, b in _control_ledgers() if b["payments"])
    broken = copy.deepcopy(block)
    broken["payments"][0]["transaction_id"] = digest("a checkout of another ledger")
    assert ap2.first_problem(block) is None, where
    assert "names no closed Checkout Mandate of its ledger" in str(ap2.first_problem(broken))
    with pytest.raises(ValueError, match="names no checkout of its ledger"):
        Ledger.model_validate(broken)
    del broken["payments"][0]["transaction_id"]
    assert "'transaction_id' is a required property" in str(ap2.first_problem(broken))


def test_ap2_schema__a_checkout_whose_hash_is_not_its_jwts_fails():
    block = next(b for _, b in _control_ledgers() if b["checkouts"])
    broken = copy.deepcopy(block)
    broken["checkouts"][0]["checkout_hash"] = digest("another checkout")
    assert "not the digest of its checkout_jwt" in str(ap2.first_problem(broken))
    with pytest.raises(ValueError, match="not its own"):
        Ledger.model_validate(broken)


@pytest.mark.parametrize("name", sorted(k for k in OLD if not k.startswith("_")))
def test_ap2_schema__the_ledgers_committed_before_fail_naming_what(name):
    """The audit catches what the issue found: the open mandate's missing
    `payment.reference` and `cnf`, a checkout's `exp: null` and missing `checkout_jwt`, a
    payment's `transaction_id: null` and missing `payment_instrument`."""
    said = "\n".join(ap2.problems(OLD[name]))
    assert "mandate: open Payment Mandate at (the object): 'cnf' is a required property" in said
    assert "constraints" in said
    assert "'payment_instrument' is a required property" in said
    if OLD[name]["checkouts"]:
        assert "at exp: None is not of type 'integer'" in said
        assert "'checkout_jwt' is a required property" in said
    else:
        assert "at transaction_id: None is not of type 'string'" in said
