"""The cassette verbs against a careless user and a hostile submitter: a recording with no
key fails at once leaving nothing behind; `replay` goes on past a bad cassette directory,
reports each, and fails a run that is not the family's public scenario set."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import checkout_consent.cli.main as cli
from checkout_consent.cassettes import store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.preflight import KEY_VARS
from checkout_consent.cassettes.runs import record
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.cassettes.forge import copy_units

ALL_KEY_VARS = {v for vars_ in KEY_VARS.values() for v in vars_}


@pytest.fixture
def no_keys(monkeypatch) -> dict[str, str]:
    for var in ALL_KEY_VARS | {"OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"}:
        monkeypatch.delenv(var, raising=False)
    return {k: v for k, v in os.environ.items() if k not in ALL_KEY_VARS}


@pytest.mark.parametrize(
    "model, var",
    [
        ("openai/gpt-4o", "OPENAI_API_KEY"),
        ("anthropic/claude-opus-4-1", "ANTHROPIC_API_KEY"),
        ("groq/llama-3.1-8b", "GROQ_API_KEY"),
    ],
)
def test_run_cassette_record__with_no_key_fails_at_once_leaving_nothing(
    no_keys, tmp_path, capsys, model, var
):
    root, logs = tmp_path / "cassettes", tmp_path / "logs"
    start = time.perf_counter()
    code = cli.main(
        [
            "--log-dir",
            str(logs),
            "run",
            "storefront",
            "--model",
            model,
            "--cassette",
            "record",
            "--cassette-root",
            str(root),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and var in err and len(err.strip().splitlines()) == 1, err
    assert time.perf_counter() - start < 30  # no sanity run, no Inspect: a hang guard
    assert not root.exists() and not logs.exists()


def test_record__with_no_key_refuses_before_writing_anything(no_keys, tmp_path):
    manifest = store.Manifest("pizza", "openai/gpt-4o", None, {}, {})
    with pytest.raises(CassetteRefused, match="no OPENAI_API_KEY"):
        record(manifest, root=tmp_path / "cassettes", log_dir=tmp_path / "logs")
    assert list(tmp_path.iterdir()) == []


def test_run_cassette_record__with_no_key_exits_in_a_fresh_process(no_keys, tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "checkout_consent.cli",
            "--log-dir",
            str(tmp_path / "logs"),
            "run",
            "pizza",
            "--model",
            "openai/gpt-4o",
            "--cassette",
            "record",
            "--cassette-root",
            str(tmp_path / "c"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**no_keys, "PYTHONPATH": str(REPO_ROOT)},
    )  # this checkout, from any cwd
    assert out.returncode == 2 and "OPENAI_API_KEY" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and sorted(p.name for p in tmp_path.iterdir()) == []


def _one_seed(root: Path) -> Path:
    """A cassette directory playing storefront seed 0 only (not the public set)."""
    source = store.CASSETTE_ROOT / "storefront" / "anthropic--storefront-oracle"
    copy = root / "storefront" / source.name
    copy_units(source, copy, lambda names: ["seed-0-1"], {"seeds": "0"})
    return copy


def _bad_dirs(root: Path) -> tuple[Path, Path]:
    source = store.CASSETTE_ROOT / "shopkit" / "openai--shopkit-noop"
    corrupt = shutil.copytree(source, root / "a-corrupt" / source.name)
    unit = corrupt / store.CASSETTE
    unit.write_bytes(unit.read_bytes()[:40])
    forged = shutil.copytree(source, root / "b-forged" / source.name)
    (forged / store.MANIFEST).write_text('{"family": "shopkit", "surprise": true}')
    return unit, forged / store.MANIFEST


@pytest.mark.inspect
@pytest.mark.cassette
def test_replay_verb__goes_on_past_bad_directories_and_reports_each(tmp_path, capsys):
    root = tmp_path / "submitted"
    good = _one_seed(root)
    bad_unit, bad_manifest = _bad_dirs(root)
    logs = str(tmp_path / "logs")
    assert cli.main(["--log-dir", logs, "replay", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"ok       {good}" in out
    assert "    partial: not the public scenario set" in out  # one seed: replayed, marked
    assert f"{bad_unit}: is not a whole gzip file" in out
    assert f"{bad_manifest}: model: Field required" in out
    assert "replayed 3 cassette run(s): 1 ok, 2 failed" in out
    assert cli.main(["--log-dir", logs, "replay", "--whole-set", str(good)]) == 1  # a review
    out = capsys.readouterr().out
    assert "not the public scenario set" in out and "{'seeds': '0-9'}" in out


def test_run_cassette_replay__a_hostile_directory_is_refused_before_sanity(tmp_path, capsys):
    root = tmp_path / "c"
    directory = root / "storefront" / "openai--storefront-oracle"
    directory.mkdir(parents=True)
    (directory / store.MANIFEST).symlink_to(tmp_path)
    logs = tmp_path / "logs"
    code = cli.main(
        [
            "--log-dir",
            str(logs),
            "run",
            "storefront",
            "--model",
            "openai/storefront-oracle",
            "--cassette",
            "replay",
            "--cassette-root",
            str(root),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "is a symlink" in err and len(err.strip().splitlines()) == 1, err
    assert not logs.exists()  # no sanity run, no Inspect
