"""Cassettes in the format before the compact one (vcrpy's YAML, gzipped) still replay, and
`checkout-consent cassettes convert` rewrites them into compact ones that replay the same."""

import gzip
from pathlib import Path

import pytest
from vcr.serialize import serialize

import checkout_consent.cli.main as cli
from checkout_consent.cassettes import store
from checkout_consent.cassettes.match import RUN_UNIT_HEADER, header, request_key
from checkout_consent.cassettes.references import LOCAL_EVAL_ARGS
from checkout_consent.cassettes.runs import record, replay
from checkout_consent.serve.controls import serving

pytestmark = [pytest.mark.cassette, pytest.mark.inspect]


def _save_legacy(cassette_path: str | Path, cassette_dict: dict, serializer: object) -> None:
    """What the persister wrote before the compact format: one YAML file per run unit."""
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


@pytest.fixture(scope="module")
def legacy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("legacy")
    with pytest.MonkeyPatch.context() as mp, serving(port=0) as server:
        mp.setattr(store.UnitPersister, "save_cassette", staticmethod(_save_legacy))
        m = store.Manifest(
            "storefront",
            "openai/storefront-idle",
            server.url + "/v1",
            {"responses_api": False},
            {"seeds": "2"},
        )
        return record(m, root=root, log_dir=root / "logs", eval_args=LOCAL_EVAL_ARGS).directory


def test_legacy_cassette__replays_exactly(legacy, tmp_path):
    assert [p.name for p in store.cassette_files(legacy)] == ["seed-2-1.yaml.gz"]
    assert replay(legacy, log_dir=tmp_path).differences == []


def test_convert__rewrites_legacy_units_that_play_the_same(legacy, tmp_path, capsys):
    import shutil

    copy = shutil.copytree(legacy, tmp_path / "copy")
    before = _played(copy)
    assert cli.main(["cassettes", "convert", str(tmp_path)]) == 0
    assert "1 legacy unit(s) converted" in capsys.readouterr().out
    assert [p.name for p in store.cassette_files(copy)] == [store.CASSETTE]
    assert _played(copy) == before
    assert cli.main(["cassettes", "convert", str(copy)]) == 0  # twice: nothing left to do
    assert "0 legacy unit(s) converted" in capsys.readouterr().out
