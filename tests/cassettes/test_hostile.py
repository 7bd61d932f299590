"""Cassette directories from strangers: links, files outside, bombs, corrupt or wrong-shaped
files and forged run.json are refused in one line naming the file, before any Inspect work,
and never print what they point at."""

import gzip
import json
import os
import time
from pathlib import Path

import pytest
import yaml

from checkout_consent.cassettes import load, store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.preflight import check_directory, scenario_note
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
        store.UnitPersister.load_cassette(directory, store.SafeYaml)
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
    requests, _ = store.UnitPersister.load_cassette(directory, store.SafeYaml)
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
    os.mkfifo(directory / "x.golden.json")
    _refused(directory, "is not a regular file")


def _alias_bomb(levels: int = 9) -> str:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    previous = "a"
    for name in "bcdefghijk"[: levels - 1]:
        text += f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]\n"
        previous = name
    return text + f"interactions: [*{previous}]\nversion: 1\n"


def test_load_unit__refuses_a_1kb_alias_bomb_at_once(tmp_path):
    bomb = _alias_bomb()
    assert len(bomb) < 1024  # expands to 9**9 (387 million) strings
    unit = tmp_path / "seed-0-1.yaml.gz"
    unit.write_bytes(gzip.compress(bomb.encode()))
    start = time.perf_counter()
    with pytest.raises(CassetteRefused, match="YAML nodes with aliases expanded"):
        load.load_unit(unit)
    assert time.perf_counter() - start < 5  # a hang guard; the figure: benchmarks/cassette_load.py


def _legacy_unit(directory: Path) -> tuple[Path, dict]:
    """A unit in the legacy format (vcrpy YAML, gzipped) beside the directory's units."""
    good = {
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
    unit = directory / "T9-1.yaml.gz"
    unit.write_bytes(_yaml_unit(good))
    return unit, good


def _yaml_unit(interactions: object) -> bytes:
    return gzip.compress(yaml.safe_dump(interactions).encode())


def _wrong_shapes(good: dict) -> dict[str, object]:
    first = good["interactions"][0]
    no_response = {**good, "interactions": [{"request": first["request"]}]}
    bad_status = json.loads(json.dumps(good))
    bad_status["interactions"][0]["response"]["status"]["code"] = "200"
    return {
        "a list": [1, 2],
        "no version": {"interactions": good["interactions"]},
        "no interactions": {"version": 1, "interactions": []},
        "no response": no_response,
        "a string status code": bad_status,
    }


def test_load_cassette__reads_a_good_legacy_unit_beside_compact_ones(tmp_path):
    directory = _copy(tmp_path)
    _legacy_unit(directory)
    requests, _ = store.UnitPersister.load_cassette(directory, store.SafeYaml)
    assert "T9-1" in {r.headers["x-cc-run-unit"] for r in requests}


@pytest.mark.parametrize(
    "case",
    [
        "truncated",
        "corrupt",
        "not gzip",
        "syntax",
        "binary",
        "a list",
        "no version",
        "no interactions",
        "no response",
        "a string status code",
    ],
)
def test_load_unit__refuses_a_bad_legacy_cassette_in_one_line_naming_it(tmp_path, case):
    directory = _copy(tmp_path)
    unit, good = _legacy_unit(directory)
    packed = unit.read_bytes()
    text = gzip.decompress(packed)
    data = {
        "truncated": packed[: len(packed) // 2],
        "corrupt": packed[:20] + bytes(b ^ 0x5A for b in packed[20:60]) + packed[60:],
        "not gzip": text,
        "syntax": gzip.compress(b"interactions: [unclosed\n  - {a: b\nversion: 1\n"),
        "binary": gzip.compress(bytes(range(256)) * 4),
    }.get(case) or _yaml_unit(_wrong_shapes(good)[case])
    unit.write_bytes(data)
    assert str(unit) in _refused(directory, "refused")


def test_read_unit__refuses_a_gzip_bomb(tmp_path, monkeypatch):
    path = tmp_path / "seed-0-1.json.gz"
    path.write_bytes(gzip.compress(b"x" * 100_000))
    monkeypatch.setattr(load, "MAX_UNIT_BYTES", 50_000)
    with pytest.raises(CassetteRefused, match="unpacks to more than 50000 bytes"):
        load.read_unit(path)


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


def test_goldens__a_unit_golden_in_both_formats_is_refused(tmp_path):
    directory = _copy(tmp_path)
    golden = next(directory.glob("*" + store.GOLDEN))
    plain = golden.with_name(golden.name.removesuffix(".gz"))
    plain.write_text(json.dumps(store.read_golden(golden)))
    _refused(directory, "a second time")


def test_convert__gzips_plain_goldens_that_read_back_the_same(tmp_path, capsys):
    from checkout_consent.cli.main import main

    directory = _copy(tmp_path)
    before = store.read_goldens(directory)
    for golden in directory.glob("*" + store.GOLDEN):  # as a run recorded before gzip
        golden.with_name(golden.name.removesuffix(".gz")).write_text(
            json.dumps(store.read_golden(golden), indent=2, sort_keys=True) + "\n"
        )
        golden.unlink()
    assert store.read_goldens(directory) == before  # the plain ones are still read
    assert main(["cassettes", "convert", str(directory)]) == 0
    assert f"{len(before)} golden(s) gzipped" in capsys.readouterr().out
    assert not list(directory.glob("*" + store.LEGACY_GOLDEN))
    assert store.read_goldens(directory) == before


def test_scenario_note__says_when_a_run_is_not_the_public_set(tmp_path):
    directory = _copy(tmp_path)
    assert scenario_note(check_directory(directory)) is None  # committed: the public set
    (directory / store.MANIFEST).write_text(
        json.dumps({**_manifest(directory), "task_args": {"task": "T1"}})
    )
    note = scenario_note(check_directory(directory))
    assert note and "not the public scenario set" in note and "{'task': 'all'}" in note


def test_load_cassette__refuses_a_directory_that_unpacks_too_far_in_total(tmp_path, monkeypatch):
    directory = _copy(tmp_path, units=3)
    _legacy_unit(directory)
    sizes = [len(load.read_unit(u)) for u in store.cassette_files(directory)]
    monkeypatch.setattr(store, "MAX_RUN_BYTES", sum(sizes) - 1)  # each file alone is fine
    with pytest.raises(CassetteRefused, match="bytes of cassettes"):
        store.UnitPersister.load_cassette(directory, store.SafeYaml)


def test_replay_checks__refuse_a_directory_of_too_many_files(tmp_path, monkeypatch):
    directory = _copy(tmp_path, units=3)
    monkeypatch.setattr(load, "MAX_FILES", 4)  # run.json + the cassette + 3 goldens
    _refused(directory, "holds more than 4 files")
