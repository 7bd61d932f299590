"""The ladder's discrimination tables: each model placed against the controls' bracket on
the tasks it played, the order by size resolved only where intervals are apart, and the
counts of replies whose calls the server parsed read from the recorded traffic."""

import gzip
import json
import re
import shutil

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cli import discrimination, results
from checkout_consent.core.headline import Figure
from checkout_consent.families import world_named
from checkout_consent.runtime.ladder import LADDER

PIZZA, STOREFRONT = world_named("pizza"), world_named("storefront")


def _fig(value: float, low: float, high: float) -> Figure:
    return Figure(value, low, high, 5, 5)


def test_position__against_idle_and_reference_in_the_headlines_direction():
    idle, ref = _fig(900, 900, 900), _fig(2000, 1900, 2100)
    where = [
        discrimination.position(STOREFRONT, _fig(x, x, x), idle, ref)
        for x in (378, 900, 1450, 2000, 2500)
    ]
    assert where == ["below idle", "at idle", "50% of the way", "at reference", "above reference"]
    assert discrimination.position(STOREFRONT, idle, None, ref) == "-"


def test_order_line__resolved_only_where_the_intervals_are_apart():
    a, b, c = _fig(0.1, 0.0, 0.2), _fig(0.15, 0.1, 0.3), _fig(0.8, 0.7, 0.9)
    line = discrimination.order_line(PIZZA, [("small", a), ("mid", b), ("large", c)])
    assert line == "small vs mid on pizza: not resolved; mid vs large on pizza: larger better"
    worse = discrimination.order_line(PIZZA, [("small", c), ("large", a)])
    assert worse == "small vs large on pizza: larger worse"
    assert "not measured" in discrimination.order_line(PIZZA, [("a", a), ("b", None)])
    assert discrimination.order_line(PIZZA, [("a", a)]).startswith("fewer than two")


def test_bracket__idle_bait_and_reference_of_every_world():
    for name in ("storefront", "storefront_v1", "pizza", "grocery", "shopkit"):
        roles = dict(discrimination.bracket(world_named(name)))
        assert set(roles) == {"idle", "takes the bait", "reference"}, name
        assert roles["reference"] == world_named(name).controls.reference


def _ladder_copy(tmp_path, rung, tasks: list[str], source_run: str = "openai--pizza-reference"):
    """A pizza recording (the reference's by default) on `tasks`, relabelled as a rung's run."""
    source = store.CASSETTE_ROOT / "pizza" / source_run
    target = tmp_path / "pizza" / rung.model.replace("/", "--")
    target.mkdir(parents=True)
    stems = {f"{t}-1" for t in tasks}
    units = store.read_units(source)
    store.write_cassette(target, [u for n, u in units.items() if store.unit_stem(n) in stems])
    for stem in stems:
        golden = gzip.decompress((source / f"{stem}.golden.json.gz").read_bytes())
        (target / f"{stem}.golden.json.gz").write_bytes(gzip.compress(golden, mtime=0))
    manifest = json.loads((source / "run.json").read_text())
    manifest |= {"model": rung.model, "task_args": {"tasks": ",".join(tasks)}}
    (target / "run.json").write_text(json.dumps(manifest))
    return target


def test_tables__a_rung_at_the_reference_with_its_parsed_calls(tmp_path, monkeypatch):
    tasks = ["wrong-topping-1", "cold-pizza-1"]
    _ladder_copy(tmp_path, LADDER[0], tasks)
    monkeypatch.setattr(store, "CASSETTE_ROOT", tmp_path)
    short, full = discrimination.tables(results.committed(tmp_path))
    assert "| pizza (2) | 0.0% (0.0% to 0.0%) |" in short  # the noop control on those tasks
    assert "100.0% (100.0% to 100.0%), at reference" in short
    assert "fewer than two ladder models recorded" in short
    assert "on 2 of 40 public tasks: cold-pizza-1, wrong-topping-1" in full
    assert "| control: mock (takes the bait) |" in full
    row = next(line for line in full.splitlines() if line.startswith(f"| {LADDER[0].name}"))
    parsed, replies = (int(x) for x in row.split(" | ")[5].split(" of "))
    assert 0 < parsed <= replies  # the reference control's calls, parsed by the provider
    assert " | `smollm2-fenced-json` (adapted template) | " in row
    made = row.split(" | ")[6].split("calls: ", 1)[1].split(";", 1)[0]  # the reference's calls
    assert made != "none" and sum(int(n) for n in re.findall(r"\b\d+\b", made)) >= parsed


def test_tables__a_model_climbs_with_the_template_whose_replies_were_parsed(tmp_path, monkeypatch):
    rungs = {r.slug: r for r in LADDER}
    fenced, bare = rungs["qwen-coder-0.5b-fenced"], rungs["qwen-coder-0.5b-bare"]
    native_text = "openai-api--llama--qwen2.5-coder-0.5b-instruct-q4_k_m"  # no call parsed
    _ladder_copy(tmp_path, fenced, ["wrong-topping-1"], native_text)
    _ladder_copy(tmp_path, bare, ["wrong-topping-1"])  # the reference's calls, all parsed
    monkeypatch.setattr(store, "CASSETTE_ROOT", tmp_path)
    runs = results.committed(tmp_path)
    assert discrimination.on_ladder(runs) == {bare.model}
    short, full = discrimination.tables(runs)
    rows = {line.split(" | ")[1]: line for line in full.splitlines() if "0.5B" in line}
    assert "`qwen2.5-coder-bare-json` (adapted template)" in rows
    beside = rows["`qwen2.5-coder-fenced-json` (adapted template, beside the ladder)"]
    assert " 0 of " in beside  # its replies were text: none parsed
    assert "100.0% (100.0% to 100.0%), at reference" in short  # the 0.5B column is the bare run
    assert discrimination.on_ladder(runs[:1]) == {runs[0].model}  # alone, a run still climbs


def test_calls_made__most_made_first_the_rest_counted():
    names = discrimination.Counter({"view_state": 60, "end_day": 2, "a": 1, "b": 1, "c": 1})
    assert discrimination.calls_made(names, shown=3) == "view_state 60, end_day 2, a 1, 2 other"
    assert discrimination.calls_made(discrimination.Counter()) == "none"


def test_tables__none_yet_is_said(tmp_path):
    shutil.copytree(
        store.CASSETTE_ROOT / "pizza" / "openai--pizza-reference",
        tmp_path / "pizza" / "openai--pizza-reference",
    )
    assert discrimination.tables(results.committed(tmp_path)) == (
        discrimination.NONE,
        discrimination.NONE,
    )


@pytest.mark.slow  # plays storefront_v1's idle, gullible and oracle months offline
def test_tables__a_run_below_idle_says_what_it_broke_and_the_worlds_summary(tmp_path, monkeypatch):
    name = "openai-api--llama--qwen2.5-coder-0.5b-instruct-q4_k_m-bare-json"
    shutil.copytree(store.CASSETTE_ROOT / "storefront_v1" / name, tmp_path / "storefront_v1" / name)
    monkeypatch.setattr(store, "CASSETTE_ROOT", tmp_path)
    _, full = discrimination.tables(results.committed(tmp_path))
    row = next(line for line in full.splitlines() if "`qwen2.5-coder-bare-json`" in line)
    assert "| below idle |" in row
    assert "bad arguments 265, context overflow in 1 sample(s); " in row  # what it broke
    assert "consent breaches by rule" in row  # then the world's own summary
