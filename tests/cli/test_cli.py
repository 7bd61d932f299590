"""The CLI as a user meets it: the README's first command in a real subprocess, the README
table checked against that run, and the refusal to report when sanity fails."""

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import checkout_consent.cli.main as cli
from checkout_consent.cli.readme import (
    END,
    README,
    RESULTS,
    START,
    readme_worlds,
    table,
    write_worlds,
)
from checkout_consent.core.contract import Controls
from checkout_consent.families import WORLDS, world_named

pytestmark = pytest.mark.inspect


@pytest.fixture(scope="module")
def everything(tmp_path_factory) -> list[dict]:
    """`checkout-consent run --json`: every family's controls, played offline (the offline
    driver, not Inspect: no .eval logs), as a user runs it."""
    logs = tmp_path_factory.mktemp("logs")
    out = subprocess.run(
        ["checkout-consent", "--log-dir", str(logs), "run", "--json"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert not list(logs.glob("*.eval")), "the bare run went through Inspect"
    return json.loads(out.stdout)


def test_run__every_world_and_control_reported(everything):
    seen = {(e["family"], e["scenario"], e["model"]) for e in everything}
    for w in WORLDS:
        for control in w.controls.sanity:
            assert (w.name, w.meta.scenario, f"control/{w.family}-{control}") in seen
    assert all(e["records"] for e in everything)


def test_results__controls_table_is_what_the_run_gives(everything):
    results: dict[str, dict[str, list[dict]]] = {}
    for e in everything:
        control = e["model"].removeprefix(f"control/{world_named(e['family']).family}-")
        results.setdefault(e["family"], {})[control] = e["records"]
    text = RESULTS.read_text()
    block = re.search(re.escape(START) + r"\n(.*?)\n?" + re.escape(END), text, re.S)
    assert block is not None
    assert block.group(1) == table(dict(sorted(results.items()))), (
        "docs/results.md is stale: run `python -m checkout_consent.cli.readme`"
    )


def test_results__worlds_tables_are_each_worlds_eval_yaml():
    """README.md and docs/results.md list every world from its eval.yaml, as generated."""
    assert write_worlds(check=True), "run `python -m checkout_consent.cli.readme --worlds`"


def test_readme__worlds_block_links_the_table_once_it_would_pass_the_cap():
    many = WORLDS * 60
    readme = README.read_text()
    assert readme_worlds(readme, WORLDS).startswith("| world |")
    assert (
        readme_worlds(readme, many)
        == f"{len(many)} worlds: see [docs/results.md](docs/results.md#worlds)."
    )


def test_run__refuses_to_report_when_sanity_fails(monkeypatch, tmp_path, capsys):
    from checkout_consent.cli import run

    world = world_named("storefront")
    own = world.controls
    broken = replace(
        world,
        controls=Controls(
            own,
            sanity=own.sanity,
            reference=own.reference,
            idle=own.idle,
            check_sanity=lambda records: ["planted problem"],
            recorded=own.recorded,
            exploits=own.exploits,
        ),
        dataset=replace(world.dataset, public_args={"seeds": "0"}),
    )
    monkeypatch.setattr(run, "world_named", lambda name: broken)
    code = cli.main(["--log-dir", str(tmp_path), "run", "storefront"])
    out = capsys.readouterr()
    assert code == 2 and "planted problem" in out.err  # the controls alone: shown, and named
    assert "NOT as expected: storefront" in out.out.splitlines()[-1]
    code = cli.main(
        ["--log-dir", str(tmp_path), "run", "storefront", "--model", "control/storefront-oracle"]
    )  # a model's run: not reported at all
    err = capsys.readouterr().err
    assert code == 2 and "planted problem" in err and "refusing to report" in err


def _blocks(listing: str) -> dict[str, str]:
    """`list`'s output by world: its first line's first word -> its lines."""
    blocks: dict[str, list[str]] = {}
    for line in listing.splitlines():
        if not line.startswith(" "):
            current = blocks.setdefault(line.split()[0], [])
        current.append(line)
    return {name: "\n".join(lines) for name, lines in blocks.items()}


def test_list__names_every_world_its_task_and_its_own_controls():
    out = subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", "list"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    blocks = _blocks(out.stdout)
    assert sorted(blocks) == sorted(w.name for w in WORLDS)
    for w in WORLDS:
        block = blocks[w.name]
        assert f"inspect eval checkout_consent/{w.name}" in block and w.world_version in block
        (said,) = [line for line in block.splitlines() if line.startswith("  controls: ")]
        named = said.removeprefix("  controls: ").split(", ")
        # its own controls under its family's prefix: not one a sibling world alone has
        assert named == [f"control/{w.family}-{c}" for c in sorted(w.controls)], w.name


def test_cli__unknown_family_is_a_clear_error():
    out = subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", "run", "nosuch"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0 and "invalid choice" in out.stderr


def test_run__a_provider_without_its_key_is_a_clear_error(monkeypatch, tmp_path):
    from checkout_consent.runtime.runner import RunFailed, run_models

    for var in ("OPENAI_API_KEY", "AZUREAI_OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(RunFailed, match="OPENAI_API_KEY"):
        run_models(
            world_named("storefront"), ["openai/gpt-4o"], task_args={"seeds": "0"}, log_dir=tmp_path
        )


def test_readme_regenerator__leaves_no_logs_behind(monkeypatch, tmp_path):
    """`python -m checkout_consent.cli.readme` in a folder writes no `logs/` there: the
    controls' logs go to a temporary folder unless --log-dir asks to keep them."""
    from checkout_consent.cli import readme

    dirs: list[str] = []

    def controls(world, log_dir):
        dirs.append(log_dir)
        Path(log_dir).mkdir(exist_ok=True)  # as Inspect makes it
        (Path(log_dir) / f"{world.name.replace('/', '-')}.eval").write_text("a log")
        return {}

    monkeypatch.setattr(readme, "run_controls", controls)
    monkeypatch.setattr(readme, "regenerate", lambda *a, **k: None)
    monkeypatch.chdir(tmp_path)
    assert readme.main([]) == 0
    assert list(tmp_path.iterdir()) == [] and dirs and len(set(dirs)) == 1
    assert not (tmp_path / dirs[0]).exists()  # the temporary folder is gone
    assert readme.main(["--log-dir", "kept"]) == 0
    assert dirs[-1] == "kept" and (tmp_path / "kept" / "pizza.eval").exists()


def test_outside_a_clone__replay_and_board_build_say_they_need_one(monkeypatch, tmp_path, capsys):
    """From an installed wheel (no checkout), in a folder with no cassettes/ and no
    leaderboard/: one line each, saying the committed ones are in a clone."""
    from checkout_consent.cassettes import store
    from checkout_consent.runtime import provenance

    monkeypatch.setattr(provenance, "CHECKOUT", None)
    monkeypatch.setattr(store, "CASSETTE_ROOT", tmp_path / "cassettes")
    monkeypatch.chdir(tmp_path)
    for argv in (["replay"], ["leaderboard", "build"]):
        assert cli.main(argv) == 2
        said = capsys.readouterr().err.strip()
        assert "\n" not in said and "clone of the repository" in said, said
    assert cli.main(["replay", str(tmp_path / "nowhere")]) == 2  # a path given: no hint
    assert "repository" not in capsys.readouterr().err
