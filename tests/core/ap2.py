"""An AP2 implementer's audit of a consent ledger (a record's `consent` block, as JSON):
its open Payment Mandate, each closed Checkout Mandate and each closed Payment Mandate
validated against AP2 v0.2's own JSON Schemas (`ap2_schemas/`, copied verbatim; Draft
2020-12, `$ref`s resolved offline from a local registry), then what the schemas cannot
say: each `checkout_hash` is the digest of its `checkout_jwt` and each checkout is held
once, and every payment's `transaction_id` names a checkout of the same ledger. Also the
committed goldens that carry ledgers, found on disk (`golden_ledgers`)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from checkout_consent.core.encoding import digest
from checkout_consent.runtime.logs import zip_members

HERE = Path(__file__).resolve().parent
SCHEMAS = HERE / "ap2_schemas"
REPO = HERE.parents[1]
AP2_COMMIT = "e1ea56db72a6385bce3e5c1112b3a56ce60acb43"
OBJECTS = {  # what each object of a ledger is, and the AP2 schema file it must validate against
    "open Payment Mandate": "open_payment_mandate.json",
    "closed Checkout Mandate": "checkout_mandate.json",
    "closed Payment Mandate": "payment_mandate.json",
}


@cache
def registry() -> Registry:
    """Every copied schema under its own `$id` (so `types/merchant.json` resolves as the
    AP2 files write it), nothing fetched."""
    resources = []
    for path in sorted(SCHEMAS.rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def validator(name: str) -> Draft202012Validator:
    """The Draft 2020-12 validator of one of `OBJECTS`."""
    schema = json.loads((SCHEMAS / OBJECTS[name]).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry())


def _invalid(name: str, where: str, value: Any) -> Iterator[str]:
    for error in sorted(validator(name).iter_errors(value), key=lambda e: list(e.path)):
        at = "/".join(map(str, error.absolute_path)) or "(the object)"
        yield f"{where}: {name} at {at}: {error.message}"


def problems(block: Mapping[str, Any]) -> Iterator[str]:
    """Every way `block` fails the audit, one line each, naming the object."""
    yield from _invalid("open Payment Mandate", "mandate", block.get("mandate"))
    hashes: list[str] = []
    for n, c in enumerate(block.get("checkouts", [])):
        where = f"checkouts[{n}] ({c.get('checkout', {}).get('id', '?')})"
        yield from _invalid("closed Checkout Mandate", where, c)
        jwt, got = c.get("checkout_jwt"), c.get("checkout_hash")
        if isinstance(jwt, str) and got != digest(jwt):
            yield f"{where}: checkout_hash is not the digest of its checkout_jwt"
        if got in hashes:
            yield f"{where}: the same closed Checkout Mandate twice"
        hashes.append(got)
    for n, p in enumerate(block.get("payments", [])):
        where = f"payments[{n}] ({p.get('payment_id', '?')})"
        yield from _invalid("closed Payment Mandate", where, p)
        if p.get("transaction_id") not in hashes:
            yield f"{where}: transaction_id names no closed Checkout Mandate of its ledger"


def first_problem(block: Mapping[str, Any]) -> str | None:
    return next(problems(block), None)


def counts(block: Mapping[str, Any]) -> dict[str, int]:
    """How many objects of each kind `block` holds."""
    return {
        "open Payment Mandate": 1,
        "closed Checkout Mandate": len(block.get("checkouts", [])),
        "closed Payment Mandate": len(block.get("payments", [])),
    }


def _records(value: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every record (a mapping with a `consent` block) inside `value`, with its path."""
    if isinstance(value, Mapping):
        if isinstance(value.get("consent"), Mapping):
            yield "", value
            return
        for key, inner in value.items():
            for at, record in _records(inner):
                yield f"{key}/{at}".rstrip("/"), record
    elif isinstance(value, list):
        for n, inner in enumerate(value):
            for at, record in _records(inner):
                yield f"{n}/{at}".rstrip("/"), record


def log_samples(path: Path) -> Iterator[tuple[str, Any]]:
    """Every sample of an .eval log, by its member name."""
    for name, data in sorted(zip_members(path)):
        if name.startswith("samples/") and name.endswith(".json"):
            yield name, json.loads(data)


def golden_files() -> list[Path]:
    """Every committed file that holds score records: the cassettes' goldens, the tests'
    goldens, the example submissions' logs and their cassettes' goldens."""
    return [
        *sorted(REPO.glob("cassettes/*/*/*.golden.json.gz")),
        *sorted(REPO.glob("tests/*/golden*.json")),
        *sorted(REPO.glob("leaderboard/submissions/*/*/logs/*.eval")),
        *sorted(REPO.glob("leaderboard/submissions/*/*/cassettes/*/*.golden.json.gz")),
    ]


def read_json(path: Path) -> Any:
    """A golden file's JSON (gzipped or not)."""
    data = path.read_bytes()
    return json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)


def golden_ledgers(path: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every consent block in one of `golden_files`, with where it is."""
    rel = path.relative_to(REPO)
    if path.suffix == ".eval":
        for name, sample in log_samples(path):
            for at, record in _records(sample.get("scores", {})):
                yield f"{rel}:{name}:{at}", record["consent"]
        return
    for at, record in _records(read_json(path)):
        yield f"{rel}:{at}" if at else str(rel), record["consent"]
