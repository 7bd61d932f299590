"""`checkout-consent cassettes merge`: a run recorded in parts over disjoint seeds becomes
one cassette directory, byte for byte the one a single recording of those seeds holds; parts
that disagree are refused in one line, before anything is written."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.tools import merge, seeds_text
from checkout_consent.cli.main import main

WHOLE = store.CASSETTE_ROOT / "storefront_v1" / "openai--storefront-gullible"


def _part(whole: Path, seeds: list[int], out: Path) -> Path:
    """The part of a committed recording that plays `seeds` (as a recording of them)."""
    out.mkdir(parents=True)
    stems = {f"seed-{s}-1" for s in seeds}
    units = store.read_units(whole)
    store.write_cassette(out, [u for name, u in units.items() if store.unit_stem(name) in stems])
    goldens = store.read_goldens(whole)
    store.write_goldens(out, {k: v for k, v in goldens.items() if store.unit_stem(k) in stems})
    manifest = store.Manifest.read(whole)
    args = {**manifest.task_args, "seeds": seeds_text(seeds)}
    dataclasses.replace(manifest, task_args=args).write(out)
    return out


def _bytes(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_merge__two_parts_make_the_whole_recording(tmp_path: Path, capsys) -> None:
    assert store.Manifest.read(WHOLE).task_args["seeds"] == "0-9"
    low = _part(WHOLE, [0, 1, 2, 3, 4], tmp_path / "low")
    high = _part(WHOLE, [5, 6, 7, 8, 9], tmp_path / "high")
    out = tmp_path / "merged"
    assert main(["cassettes", "merge", str(high), str(low), "--out", str(out)]) == 0
    assert "over seeds 0-9 (check it: checkout-consent replay" in capsys.readouterr().out
    assert _bytes(out) == _bytes(WHOLE)  # cassette, goldens and run.json alike


def test_merge__seeds_text_reads_back() -> None:
    from checkout_consent.core.spec import parse_seeds

    for seeds in ([0, 1, 2, 3], [0, 1, 5], [7], [2, 4, 6, 7, 8]):
        assert parse_seeds(seeds_text(seeds)) == seeds
    assert seeds_text([3, 0, 1, 2]) == "0-3" and seeds_text([0, 1, 5]) == "0-1,5"


def test_merge__refuses_parts_that_disagree_writing_nothing(tmp_path: Path, capsys) -> None:
    low = _part(WHOLE, [0, 1], tmp_path / "low")
    again = _part(WHOLE, [1, 2], tmp_path / "again")
    other = _part(WHOLE, [5], tmp_path / "other")
    manifest = json.loads((other / "run.json").read_text())
    (other / "run.json").write_text(json.dumps({**manifest, "model": "openai/storefront-oracle"}))
    cases = [
        ([low, again], "plays seed 1 again"),
        ([low, other], "differs from"),
        ([low], "at least two"),
    ]
    for parts, says in cases:
        out = tmp_path / "out"
        code = main(["cassettes", "merge", *map(str, parts), "--out", str(out)])
        err = capsys.readouterr().err.strip()
        assert code != 0 and says in err and "\n" not in err, err
        assert not out.exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(CassetteRefused, match="is not empty"):
        merge([low, other], tmp_path / "full")
