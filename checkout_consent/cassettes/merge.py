"""`checkout-consent cassettes merge A B ... --out DIR`: one cassette directory from runs of
the same model and world recorded in parts, each over its own seeds (a long month recorded
a few seeds at a time). The parts must agree on everything run.json says but `seeds`, and
their seeds and run units must not overlap; the merged run.json plays the union of the
seeds. Nothing is re-recorded or rewritten: each unit's traffic and golden record are the
part's own, so `checkout-consent replay DIR` checks the result like any recording."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from checkout_consent.cassettes import compact, store
from checkout_consent.cassettes.load import refuse
from checkout_consent.cassettes.preflight import check_directory
from checkout_consent.core.spec import parse_seeds


def seeds_text(seeds: list[int]) -> str:
    """Sorted seeds as `-T seeds=` reads them: `0-3`, or `0-1,5` for several runs."""
    runs: list[list[int]] = []
    for s in sorted(seeds):
        if runs and s == runs[-1][-1] + 1:
            runs[-1].append(s)
        else:
            runs.append([s])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _but_seeds(manifest: store.Manifest) -> store.Manifest:
    args = {k: v for k, v in manifest.task_args.items() if k != "seeds"}
    return dataclasses.replace(manifest, task_args=args)


def merge(parts: list[Path], out: Path) -> store.Manifest:
    """Write the merged directory `out` (new or empty) from `parts`; its run.json. Every
    refusal is one line naming the part, before anything is written."""
    if len(parts) < 2:
        raise ValueError("merge needs at least two cassette directories")
    if out.is_symlink() or (out.exists() and any(out.iterdir())):
        raise refuse(out, "exists and is not empty (merge writes a new directory)")
    manifests = [check_directory(part) for part in parts]
    first = manifests[0]
    units: dict[str, compact.Unit] = {}
    goldens: dict[str, dict] = {}
    seeds: list[int] = []
    for part, manifest in zip(parts, manifests, strict=True):
        if "seeds" not in manifest.task_args:
            raise refuse(part, "run.json names no seeds: only runs over seeds are merged")
        if _but_seeds(manifest) != _but_seeds(first):
            raise refuse(part, f"run.json differs from {parts[0]}'s beyond its seeds")
        mine = parse_seeds(manifest.task_args["seeds"])
        if both := sorted(set(mine) & set(seeds)):
            raise refuse(part, f"plays seed {both[0]} again (the parts' seeds must not overlap)")
        seeds += mine
        for name, unit in store.read_units(part).items():
            if name in units:
                raise refuse(part, f"holds run unit {name!r} again")
            units[name] = unit
        goldens |= store.read_goldens(part)
    out.mkdir(parents=True, exist_ok=True)
    merged = dataclasses.replace(first, task_args={**first.task_args, "seeds": seeds_text(seeds)})
    store.write_cassette(out, list(units.values()))
    store.write_goldens(out, goldens)
    merged.write(out)
    return merged
