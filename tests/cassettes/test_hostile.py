"""Cassette directories from strangers: links, files outside, bombs, corrupt or wrong-shaped
files and forged run.json are refused in one line naming the file, before any Inspect work,
and never print what they point at."""

import gzip
import json
import os
import re
import time
from pathlib import Path

import pytest
import yaml

from checkout_consent.cassettes import load, store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.preflight import check_directory, scenario_note
from checkout_consent.cassettes.session import UnitPersister
from tests.cassettes.forge import copy_units

OUTSIDE = "OUTSIDE-VALUE-" + "7f3a"  # what a file outside the directory holds


def _copy(tmp_path: Path, units: int = 1) -> Path:
    """A copy of a committed cassette directory with its first `units` units."""
    source = store.CASSETTE_ROOT / "shopkit" / "openai--shopkit-noop"
    copy = tmp_path / "shopkit" / "openai--shopkit-noop"
    copy_units(source, copy, lambda names: names[:units])
    return copy


def _refused(directory: Path, match: str) -> str:
    """Replay's checks (preflight, then loading every unit) refuse the directory."""
    with pytest.raises(CassetteRefused, match=match) as refused:
        check_directory(directory)
        UnitPersister.load_cassette(directory)
        store.read_goldens(directory)
    message = str(refused.value)
    assert "\n" not in message and OUTSIDE not in message
    return message


def _outside(tmp_path: Path, name: str = "outside.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"leak": OUTSIDE}))
    return path


def test_copy__of_a_committed_directory_passes_every_check(tmp_path):
    directory = _copy(tmp_path, units=2)
    assert check_directory(directory).family == "shopkit"
    requests, _ = UnitPersister.load_cassette(directory)
    assert requests and len(store.read_goldens(directory)) == 2


@pytest.mark.parametrize("which", ["unit", "golden", "run.json"])
def test_replay_checks__refuse_a_symlinked_file_without_reading_its_target(tmp_path, which):
    directory = _copy(tmp_path)
    victim = {
        "unit": directory / store.CASSETTE,
        "run.json": directory / store.MANIFEST,
        "golden": next(directory.glob("*" + store.GOLDEN)),
    }[which]
    victim.unlink()
    victim.symlink_to(_outside(tmp_path))
    assert str(victim) in _refused(directory, "is a symlink")


def test_replay_checks__refuse_a_symlinked_directory(tmp_path):
    real = _copy(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    _refused(link, "is a symlink")


def test_run_dirs__never_walk_into_a_symlinked_folder(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "elsewhere").symlink_to(_copy(tmp_path), target_is_directory=True)
    assert store.run_dirs([root]) == []


@pytest.mark.parametrize(
    "name, match",
    [
        ("notes.txt", "is not a file a cassette directory holds"),
        ("sub", "holds no folders"),
    ],
)
def test_replay_checks__refuse_anything_but_cassette_files(tmp_path, name, match):
    directory = _copy(tmp_path)
    (directory / name).mkdir() if name == "sub" else (directory / name).write_text(OUTSIDE)
    _refused(directory, match)


def test_replay_checks__refuse_a_fifo_without_blocking(tmp_path):
    directory = _copy(tmp_path)
    os.mkfifo(directory / f"x{store.GOLDEN}")
    _refused(directory, "is not a regular file")


def _alias_bomb(levels: int = 9) -> str:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    previous = "a"
    for name in "bcdefghijk"[: levels - 1]:
        text += f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]\n"
        previous = name
    return text + f"interactions: [*{previous}]\nversion: 1\n"


def _legacy_unit() -> dict:
    """A run unit as the format before the compact one held it (vcrpy's YAML)."""
    return {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "http://127.0.0.1:47823/v1/chat/completions",
                    "body": json.dumps(
                        {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
                    ),
                    "headers": {"x-cc-run-unit": ["T9-1"]},
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"content-type": ["application/json"]},
                    "body": {"string": "{}"},
                },
            }
        ],
    }


LEGACY_FILES = {  # name -> (bytes, the format the refusal names); mtime=0: xdist-stable
    "a vcrpy YAML unit": (
        "T9-1.yaml.gz",
        gzip.compress(yaml.safe_dump(_legacy_unit()).encode(), mtime=0),
        "legacy vcrpy YAML cassette (*.yaml.gz",
    ),
    "a 1 KB YAML alias bomb": (
        "seed-0-1.yaml.gz",
        gzip.compress(_alias_bomb().encode(), mtime=0),
        "legacy vcrpy YAML cassette (*.yaml.gz",
    ),
    "YAML with a python tag": (
        "T9-1.yaml.gz",
        gzip.compress(b"interactions: !!python/object/apply:os.system ['echo x']\n", mtime=0),
        "legacy vcrpy YAML cassette (*.yaml.gz",
    ),
    "truncated gzip": ("T9-1.yaml.gz", b"\x1f\x8b\x08\x00", "legacy vcrpy YAML cassette"),
    "a plain-JSON golden": (
        "T9-1.golden.json",
        json.dumps({"ok": True}).encode(),
        "legacy plain-JSON golden record (*.golden.json)",
    ),
}


@pytest.mark.parametrize("case", sorted(LEGACY_FILES))
def test_legacy_file__is_refused_in_one_line_naming_its_format_unread(tmp_path, case):
    """The formats before the compact cassette and gzipped goldens are no longer read: a
    file of one, beside compact ones, is refused by name (its content never parsed: a
    bomb costs nothing), saying what to do."""
    name, data, what = LEGACY_FILES[case]
    directory = _copy(tmp_path)
    (directory / name).write_bytes(data)
    start = time.perf_counter()
    message = _refused(directory, re.escape(what))
    assert time.perf_counter() - start < 5  # a hang guard
    assert message.startswith(f"{directory / name}: is a legacy ")
    assert "record the run again, or convert" in message and "cassettes convert" in message
    for read in (store.read_units, store.read_goldens):
        with pytest.raises(CassetteRefused, match=re.escape(what)):
            read(directory)


def test_legacy_file__cassettes_show_refuses_it_in_one_line(tmp_path, capsys):
    from checkout_consent.cli.main import main

    name, data, what = LEGACY_FILES["a vcrpy YAML unit"]
    (tmp_path / name).write_bytes(data)
    assert main(["cassettes", "show", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and what in err and str(tmp_path / name) in err


def test_legacy_file__a_recording_replaces_it(tmp_path):
    """Recording the run again (what the refusal advises) clears the legacy files too."""
    directory = _copy(tmp_path)
    for name, data, _ in LEGACY_FILES.values():
        (directory / name).write_bytes(data)
    store.clear(directory)
    assert [p.name for p in directory.iterdir()] == [store.MANIFEST]


def test_read_gzip__refuses_a_gzip_bomb(tmp_path):
    path = tmp_path / "seed-0-1.json.gz"
    path.write_bytes(gzip.compress(b"x" * 100_000))
    with pytest.raises(CassetteRefused, match="unpacks to more than 50000 bytes"):
        load.read_gzip(path, 50_000)


def _manifest(directory: Path) -> dict:
    return json.loads((directory / store.MANIFEST).read_text())


@pytest.mark.parametrize(
    "change, match",
    [
        ({"surprise": 1}, "unexpected|surprise"),
        ({"epochs": "1"}, "epochs: Input should be a valid integer"),
        ({"epochs": True}, "epochs: Input should be a valid integer"),
        ({"epochs": 0}, "epochs: Input should be greater than or equal to 1"),
        ({"model": ["openai/x"]}, "model: Input should be a valid string"),
        ({"model": "openai"}, "model: String should match pattern"),
        ({"base_url": "file:///etc"}, "base_url: String should match pattern"),
        ({"model_args": {"api_key": "x"}}, "'api_key' never belongs in run.json"),
        ({"model_args": {"nested": {"a": 1}}}, "model_args.nested"),
        ({"task_args": {"task": "../../etc/passwd"}}, "looks like a path"),
        ({"task_args": {"tasks_dir": "x"}}, "shopkit has no task parameter 'tasks_dir'"),
        ({"family": "nosuch"}, "family must be one of"),
        ({"model": "vllm/local"}, "is not a provider cassettes record or replay"),
    ],
)
def test_manifest__a_forged_run_json_is_refused_naming_it(tmp_path, change, match):
    directory = _copy(tmp_path)
    (directory / store.MANIFEST).write_text(json.dumps({**_manifest(directory), **change}))
    assert str(directory / store.MANIFEST) in _refused(directory, match)


@pytest.mark.parametrize(
    "content, match",
    [
        (b"[1, 2]", "is not a JSON object"),
        (b"{not json", "is not valid JSON"),
        (b"[" * 100_000, "is not valid JSON"),
        (b"\xff\xfe", "is not valid JSON"),
        (b" " * (5 * 1024 * 1024), "is larger than"),
    ],
    ids=["list", "not-json", "deep", "bad-utf8", "huge"],
)
def test_manifest__a_run_json_that_is_not_one_is_refused(tmp_path, content, match):
    directory = _copy(tmp_path)
    (directory / store.MANIFEST).write_bytes(content)
    _refused(directory, match)


def test_goldens__one_that_is_not_a_json_object_is_refused(tmp_path):
    directory = _copy(tmp_path)
    next(directory.glob("*" + store.GOLDEN)).write_bytes(gzip.compress(b"[]"))
    _refused(directory, "is not a JSON object")


@pytest.mark.parametrize(
    ("content", "match"),
    [  # mtime=0: the same bytes in every process (pytest-xdist compares what each collects)
        (b"{}", "is not a whole gzip file"),
        (gzip.compress(b"{not json", mtime=0), "is not valid JSON"),
        (gzip.compress(b"[" * 100_000 + b"]" * 100_000, mtime=0), "is not valid JSON"),
    ],
    ids=["plain", "not-json", "deep"],
)
def test_goldens__a_gzipped_golden_that_is_not_json_is_refused(tmp_path, content, match):
    directory = _copy(tmp_path)
    next(directory.glob("*" + store.GOLDEN)).write_bytes(content)
    _refused(directory, match)


def test_goldens__a_gzipped_golden_that_unpacks_too_far_is_refused(tmp_path, monkeypatch):
    directory = _copy(tmp_path)
    monkeypatch.setattr(store, "MAX_JSON_BYTES", 1000)
    next(directory.glob("*" + store.GOLDEN)).write_bytes(gzip.compress(b" " * 5000 + b"{}"))
    _refused(directory, "unpacks to more than 1000 bytes")


def test_scenario_note__says_when_a_run_is_not_the_public_set(tmp_path):
    directory = _copy(tmp_path)
    assert scenario_note(check_directory(directory)) is None  # committed: the public set
    (directory / store.MANIFEST).write_text(
        json.dumps({**_manifest(directory), "task_args": {"task": "T1"}})
    )
    note = scenario_note(check_directory(directory))
    assert note and "not the public scenario set" in note and "{'task': 'all'}" in note


def test_replay_checks__refuse_a_directory_of_too_many_files(tmp_path, monkeypatch):
    directory = _copy(tmp_path, units=3)
    monkeypatch.setattr(load, "MAX_FILES", 4)  # run.json + the cassette + 3 goldens
    _refused(directory, "holds more than 4 files")
