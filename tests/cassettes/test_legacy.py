"""Cassettes in the format before the compact one (vcrpy's YAML, gzipped) still replay, and
`checkout-consent cassettes convert` rewrites them into compact ones that replay the same."""

import gzip
import json
from pathlib import Path

import pytest
from vcr.request import Request
from vcr.serialize import serialize

import checkout_consent.cli.main as cli
from checkout_consent.cassettes import store
from checkout_consent.cassettes.match import RUN_UNIT_HEADER, header, request_key
from checkout_consent.cassettes.references import LOCAL_EVAL_ARGS
from checkout_consent.cassettes.runs import record, replay
from checkout_consent.serve.controls import serving

pytestmark = [pytest.mark.cassette]


def _save_legacy(cassette_path: str | Path, cassette_dict: dict, serializer: object) -> None:
    """What the persister wrote before the compact format: one YAML file per run unit."""
    Path(cassette_path).mkdir(parents=True, exist_ok=True)
    units: dict[str, dict[str, list]] = {}
    for req, resp in zip(cassette_dict["requests"], cassette_dict["responses"], strict=True):
        unit = units.setdefault(header(req, RUN_UNIT_HEADER), {"requests": [], "responses": []})
        unit["requests"].append(req)
        unit["responses"].append(resp)
    for name, unit in units.items():
        text = serialize(unit, store.SafeYaml)
        path = Path(cassette_path) / f"{store.unit_stem(name)}{store.LEGACY_SUFFIX}"
        path.write_bytes(gzip.compress(text.encode(), mtime=0))


def _played(directory: Path) -> list[tuple]:
    requests, responses = store.UnitPersister.load_cassette(directory, store.SafeYaml)
    return sorted(
        (request_key(q), r["status"]["code"], r["body"]["string"])
        for q, r in zip(requests, responses, strict=True)
    )


def _hand_made(directory: Path) -> Path:
    """A legacy directory of two units written as the old persister wrote them, with a
    committed run.json (convert checks the directory first)."""
    directory.mkdir(parents=True)
    source = store.CASSETTE_ROOT / "shopkit" / "openai--shopkit-noop"
    (directory / store.MANIFEST).write_bytes((source / store.MANIFEST).read_bytes())
    requests, responses = [], []
    for unit in ("T1-1", "T2-1"):
        for turn in range(3):
            messages = [{"role": "user", "content": f"{unit} turn {t}"} for t in range(turn + 1)]
            body = json.dumps({"model": "shopkit-noop", "messages": messages}).encode()
            headers = {RUN_UNIT_HEADER: unit, "content-type": "application/json"}
            requests.append(
                Request("POST", "http://127.0.0.1:47823/v1/chat/completions", body, headers)
            )
            responses.append(
                {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"content-type": ["application/json"]},
                    "body": {"string": f'{{"answer": "{unit} {turn}"}}'.encode()},
                }
            )
    _save_legacy(directory, {"requests": requests, "responses": responses}, None)
    return directory


def test_convert__rewrites_legacy_units_that_play_the_same(tmp_path, capsys):
    legacy = _hand_made(tmp_path / "shopkit" / "openai--shopkit-noop")
    assert [p.name for p in store.cassette_files(legacy)] == ["T1-1.yaml.gz", "T2-1.yaml.gz"]
    before = _played(legacy)
    assert len(before) == 6
    assert cli.main(["cassettes", "convert", str(tmp_path)]) == 0
    assert "2 legacy unit(s) converted" in capsys.readouterr().out
    assert [p.name for p in store.cassette_files(legacy)] == [store.CASSETTE]
    assert _played(legacy) == before  # what vcrpy serves: the same keys and answers
    assert cli.main(["cassettes", "convert", str(legacy)]) == 0  # twice: nothing left to do
    assert "0 legacy unit(s) converted" in capsys.readouterr().out


@pytest.mark.slow  # a recording and two replays through Inspect
def test_legacy_cassette__replays_exactly_before_and_after_convert(tmp_path):
    with pytest.MonkeyPatch.context() as mp, serving(port=0) as server:
        mp.setattr(store.UnitPersister, "save_cassette", staticmethod(_save_legacy))
        m = store.Manifest(
            "storefront",
            "openai/storefront-idle",
            server.url + "/v1",
            {"responses_api": False},
            {"seeds": "2"},
        )
        legacy = record(m, root=tmp_path, log_dir=tmp_path / "logs", eval_args=LOCAL_EVAL_ARGS)
    directory = legacy.directory
    assert [p.name for p in store.cassette_files(directory)] == ["seed-2-1.yaml.gz"]
    assert replay(directory, log_dir=tmp_path / "logs").differences == []
    assert cli.main(["cassettes", "convert", str(directory)]) == 0
    assert [p.name for p in store.cassette_files(directory)] == [store.CASSETTE]
    assert replay(directory, log_dir=tmp_path / "logs").differences == []
