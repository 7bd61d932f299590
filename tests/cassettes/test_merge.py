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
    said = capsys.readouterr().out
    assert "over seeds 0-9 (the public set) (check it: checkout-consent replay" in said
    assert _bytes(out) == _bytes(WHOLE)  # cassette, goldens and run.json alike


def test_merge__seeds_text_reads_back() -> None:
    from checkout_consent.core.task_args import parse_seeds

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


def _served(part: Path, port: int, slots: int) -> None:
    """Give a part's run.json a local server's setting, as a ladder recording carries it."""
    manifest = store.Manifest.read(part)
    flags = f"-m w.gguf --host 127.0.0.1 --port {port} -np {slots} --temp 0.0"
    server = {"flags": flags, "slots": slots}
    url = f"http://127.0.0.1:{port}/v1"
    dataclasses.replace(manifest, base_url=url, server=server).write(part)


def test_merge__parts_served_on_other_ports_join_but_other_slots_do_not(tmp_path, capsys):
    low = _part(WHOLE, [0, 1], tmp_path / "low")
    high = _part(WHOLE, [2], tmp_path / "high")
    _served(low, 8081, 4)
    _served(high, 8083, 4)
    assert main(["cassettes", "merge", str(low), str(high), "--out", str(tmp_path / "a")]) == 0
    assert store.Manifest.read(tmp_path / "a").base_url == "http://127.0.0.1:8081/v1"
    _served(high, 8083, 2)  # a setting that changes what was evaluated
    assert main(["cassettes", "merge", str(low), str(high), "--out", str(tmp_path / "b")]) != 0
    assert "differs from" in capsys.readouterr().err and not (tmp_path / "b").exists()


PIZZA = store.CASSETTE_ROOT / "pizza" / "openai--pizza-reference"


def _tasks_part(whole: Path, tasks: list[str], out: Path) -> Path:
    """The part of pizza's reference recording that plays `tasks` (`-T tasks=...`)."""
    out.mkdir(parents=True)
    stems = {f"{t}-1" for t in tasks}
    units = store.read_units(whole)
    store.write_cassette(out, [u for name, u in units.items() if store.unit_stem(name) in stems])
    goldens = store.read_goldens(whole)
    store.write_goldens(out, {k: v for k, v in goldens.items() if store.unit_stem(k) in stems})
    manifest = store.Manifest.read(whole)
    args = {**manifest.task_args, "tasks": ",".join(tasks)}
    dataclasses.replace(manifest, task_args=args).write(out)
    return out


def test_merge__parts_over_tasks_that_cover_the_public_set_make_the_whole_run(
    tmp_path: Path, capsys
) -> None:
    from checkout_consent.families import world_named

    tasks = world_named("pizza").dataset.tasks()
    parts = [_tasks_part(PIZZA, tasks[i : i + 15], tmp_path / f"p{i}") for i in (0, 15, 30)]
    out = tmp_path / "merged"
    assert main(["cassettes", "merge", *map(str, reversed(parts)), "--out", str(out)]) == 0
    assert "(check it: checkout-consent replay" in capsys.readouterr().out
    assert _bytes(out) == _bytes(PIZZA)  # no tasks argument: pizza's public set passes none
    some = tmp_path / "some"
    assert main(["cassettes", "merge", str(parts[2]), str(parts[0]), "--out", str(some)]) == 0
    merged = store.Manifest.read(some).task_args["tasks"].split(",")
    assert merged == tasks[:15] + tasks[30:]  # the public set's order, whatever the parts'
    again = _tasks_part(PIZZA, tasks[14:16], tmp_path / "again")
    with pytest.raises(CassetteRefused, match=f"plays task {tasks[14]} again"):
        merge([parts[0], again], tmp_path / "never")
