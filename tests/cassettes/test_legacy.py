"""Cassettes in the formats before the compact one (vcrpy's YAML, one gzipped `<unit>.yaml.gz`
per run unit, and plain `<unit>.golden.json` goldens) are no longer read: no committed file
uses them. A directory of them is refused in one line naming the format and what to do (record
again, or convert with an earlier checkout), never a traceback; `cassettes convert` is gone."""

import gzip
import json
from pathlib import Path

import pytest
import yaml

import checkout_consent.cli.main as cli
from checkout_consent.cassettes import store
from checkout_consent.cassettes.match import RUN_UNIT_HEADER


def _legacy_directory(root: Path) -> Path:
    """A run as the persister wrote it before the compact format: a YAML unit file and a
    plain golden beside a committed run.json."""
    directory = root / "shopkit" / "openai--shopkit-noop"
    directory.mkdir(parents=True)
    source = store.CASSETTE_ROOT / "shopkit" / "openai--shopkit-noop"
    (directory / store.MANIFEST).write_bytes((source / store.MANIFEST).read_bytes())
    body = json.dumps({"model": "shopkit-noop", "messages": [{"role": "user", "content": "T1"}]})
    interaction = {
        "request": {
            "method": "POST",
            "uri": "http://127.0.0.1:47823/v1/chat/completions",
            "body": body,
            "headers": {RUN_UNIT_HEADER: ["T1-1"], "content-type": ["application/json"]},
        },
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": ["application/json"]},
            "body": {"string": '{"answer": "T1"}'},
        },
    }
    unit = yaml.safe_dump({"version": 1, "interactions": [interaction]})
    (directory / "T1-1.yaml.gz").write_bytes(gzip.compress(unit.encode(), mtime=0))
    (directory / "T1-1.golden.json").write_text(json.dumps({"score": 0}))
    return directory


def test_replay__refuses_a_legacy_directory_in_one_line_naming_the_format(tmp_path, capsys):
    directory = _legacy_directory(tmp_path / "cassettes")
    code = cli.main(["--log-dir", str(tmp_path / "logs"), "replay", str(tmp_path / "cassettes")])
    out = capsys.readouterr().out
    assert code == 1, out
    failed, problem = out.splitlines()[:2]
    assert failed.startswith("FAILED") and str(directory) in failed
    assert problem.strip() == (
        f"{directory / 'T1-1.golden.json'}: is a legacy plain-JSON golden record "
        f"(*.golden.json), a format this suite no longer reads: {store.LEGACY_ADVICE}; refused"
    )
    (directory / "T1-1.golden.json").unlink()
    cli.main(["--log-dir", str(tmp_path / "logs"), "replay", str(directory)])
    problem = capsys.readouterr().out.splitlines()[1]
    assert "T1-1.yaml.gz: is a legacy vcrpy YAML cassette (*.yaml.gz" in problem
    assert "Traceback" not in problem and "convert" in problem


def test_run_cassette_replay__refuses_a_legacy_directory_in_one_line(tmp_path, capsys):
    directory = _legacy_directory(tmp_path)
    (directory / "T1-1.golden.json").unlink()
    argv = ["run", "shopkit", "--model", "openai/shopkit-noop", "--cassette", "replay"]
    code = cli.main([*argv, "--cassette-root", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "legacy vcrpy YAML cassette" in err, err


def test_cassettes_convert__is_no_longer_a_verb(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["cassettes", "convert", "cassettes"])
    assert exited.value.code == 2
    assert "invalid choice: 'convert'" in capsys.readouterr().err
