"""Record through Inspect's real providers against serve-controls on loopback, then replay
keylessly with vcrpy: exact, scrubbed, and loud on an edited or missing interaction."""

import gzip
import json
import shutil
import time
from pathlib import Path

import pytest

import checkout_consent.cli.main as cli
from checkout_consent.cassettes import compact, store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.match import PART_HEX, part_digest
from checkout_consent.cassettes.runs import LOCAL_EVAL_ARGS, record, replay
from checkout_consent.cassettes.scan import scan
from checkout_consent.cassettes.session import CassetteMiss
from checkout_consent.endpoint.controls import serving
from tests.cassettes.forge import forge_response, rewrite

pytestmark = [pytest.mark.cassette, pytest.mark.inspect]

# Fake credentials, assembled at run time so no key-shaped literal sits in the repo.
FAKE_OPENAI_KEY = "sk-" + "test-" + "FAKE" * 6 + "0001"
FAKE_ANTHROPIC_KEY = "sk-" + "ant-test-" + "FAKE" * 5 + "0002"
FAKE_ORG = "org-" + "FAKE" * 6
UNITS = {"seed-0-1", "seed-0-2", "seed-1-1", "seed-1-2"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict[str, Path]:
    """Two seeds x two epochs over openai (4 connections), one seed over anthropic,
    recorded with fake keys and a fake organisation in the environment."""
    root, logs = tmp_path_factory.mktemp("cassettes"), tmp_path_factory.mktemp("logs")
    with pytest.MonkeyPatch.context() as mp, serving(port=0) as server:
        mp.setenv("OPENAI_API_KEY", FAKE_OPENAI_KEY)
        mp.setenv("OPENAI_ORG_ID", FAKE_ORG)
        mp.setenv("ANTHROPIC_API_KEY", FAKE_ANTHROPIC_KEY)
        runs = {
            "openai": store.Manifest(
                "storefront",
                "openai/storefront-gullible",
                server.url + "/v1",
                {"responses_api": False},
                {"seeds": "0-1"},
                epochs=2,
                max_connections=4,
            ),
            "anthropic": store.Manifest(
                "storefront", "anthropic/storefront-oracle", server.url, {}, {"seeds": "0"}
            ),
        }
        out = {
            name: record(m, root=root, log_dir=logs, eval_args=LOCAL_EVAL_ARGS).directory
            for name, m in runs.items()
        }
    return {**out, "root": root, "logs": logs}


def test_record__scrubs_keys_organisation_and_per_run_headers(recorded):
    files = [p for p in recorded["root"].rglob("*") if p.is_file()]
    text = "".join(
        gzip.decompress(p.read_bytes()).decode() if p.suffix == ".gz" else p.read_text()
        for p in files
    )
    assert "anthropic-version" in text  # the recording really holds the request headers
    for secret in (
        FAKE_OPENAI_KEY,
        FAKE_ANTHROPIC_KEY,
        FAKE_ORG,
        "authorization",
        "x-api-key",
        "x-irid",
        "user-agent",
        "x-stainless-retry-count",
    ):
        assert secret.lower() not in text.lower(), secret
    assert scan([recorded["root"], recorded["logs"]]) == []


def test_record__anthropic_provider_streams_server_sent_events(recorded):
    unit = next(iter(store.read_units(recorded["anthropic"]).values()))
    first = unit.requests[0]
    assert unit.frames[first.frame].fields["stream"] == part_digest(True)
    assert first.response.headers["content-type"] == ["text/event-stream"]


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_replay__reproduces_every_sample_and_epoch_exactly(recorded, name, tmp_path):
    outcome = replay(recorded[name], log_dir=tmp_path)
    assert outcome.differences == []
    assert outcome.records == store.read_goldens(recorded[name])
    if name == "openai":
        assert set(outcome.records) == UNITS


def test_replay__edited_response_differs_from_golden_and_exits_nonzero(recorded, tmp_path, capsys):
    copy = shutil.copytree(recorded["openai"], tmp_path / "edited")

    def more_usage(body: dict) -> dict:  # the recorded answer claims another usage
        body["usage"]["prompt_tokens"] += 1000
        return body

    forge_response(copy, "seed-1-2", 0, more_usage)  # its check recomputed
    assert cli.main(["--log-dir", str(tmp_path / "logs"), "replay", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "seed-1-2: provenance.input_tokens golden" in out and "seed-1-1:" not in out


def test_replay__missing_request_fails_fast_naming_cassette_and_request(recorded, tmp_path):
    copy = shutil.copytree(recorded["openai"], tmp_path / "short")
    rewrite(copy, "seed-0-2", list(store.read_units(copy)["seed-0-2"].requests[:3]))
    start = time.perf_counter()
    with pytest.raises(CassetteMiss) as miss:
        replay(copy, log_dir=tmp_path / "logs")
    assert time.perf_counter() - start < 90  # a hang guard (a retried miss hangs for minutes)
    message = str(miss.value)
    assert str(copy) in message and "run unit seed-0-2, request 3" in message
    assert "/v1/chat/completions" in message and "ends after 3 request(s)" in message


@pytest.mark.slow  # a replay through Inspect; the fast test_compact first-difference tests
# hold how a miss is named, and test_adversary refuses a changed response in the default run
def test_replay__a_forged_answer_misses_at_the_next_request_naming_the_message(recorded, tmp_path):
    """A changed response with its check recomputed: the run's next request carries the
    forged assistant turn, and the miss points at that very message."""
    copy = shutil.copytree(recorded["openai"], tmp_path / "forged")

    def other_call(body: dict) -> dict:
        call = body["choices"][0]["message"]["tool_calls"][0]["function"]
        call["arguments"] = json.dumps({**json.loads(call["arguments"]), "forged": 1})
        return body

    forge_response(copy, "seed-0-1", 0, other_call)
    expected = len(compact.messages_of(store.read_units(copy)["seed-0-1"], 0))  # its place
    with pytest.raises(CassetteMiss) as miss:
        replay(copy, log_dir=tmp_path / "logs")
    message = str(miss.value)
    assert "run unit seed-0-1, request 1" in message
    assert f"first differing message: {expected} (the run sent assistant:" in message


@pytest.mark.slow
def test_replay__a_request_for_another_epoch_is_a_miss_not_a_swap(recorded, tmp_path):
    """Epochs send identical bodies; only the run-unit header tells them apart."""
    copy = shutil.copytree(recorded["openai"], tmp_path / "one-epoch")
    units = store.read_units(copy)
    store.write_cassette(copy, [u for name, u in units.items() if name != "seed-1-2"])
    with pytest.raises(CassetteMiss, match="run unit seed-1-2"):
        replay(copy, log_dir=tmp_path / "logs")


@pytest.mark.slow  # every committed cassette: about a CPU-minute; the tests above replay parts
def test_committed_cassettes__replay_matches_golden(tmp_path, capsys):
    assert store.run_dirs([store.CASSETTE_ROOT]), "no committed cassettes"
    assert cli.main(["--log-dir", str(tmp_path), "replay"]) == 0, capsys.readouterr().out


def test_committed_cassettes__every_reference_run_is_recorded():
    from checkout_consent.cassettes.runs import references

    for ref in references():
        m = ref.manifest
        directory = ref.directory()
        assert store.Manifest.read(directory).model == m.model
        units = {store.unit_stem(name) for name in store.read_units(directory)}
        assert units and units == set(store.read_goldens(directory)), directory


def test_committed_cassettes__cover_every_family_within_the_size_budget():
    from checkout_consent.cassettes.runs import references
    from checkout_consent.families import names

    assert {r.family for r in references()} == set(names())
    assert {r.provider for r in references()} == {"openai", "anthropic"}
    size = sum(p.stat().st_size for p in store.CASSETTE_ROOT.rglob("*") if p.is_file())
    assert size < 20_000_000


def test_replay__refuses_a_run_json_naming_a_local_provider(recorded, tmp_path):
    copy = shutil.copytree(recorded["anthropic"], tmp_path / "hostile")
    manifest = json.loads((copy / "run.json").read_text())
    (copy / "run.json").write_text(json.dumps({**manifest, "model": "vllm/some-model"}))
    with pytest.raises(CassetteRefused, match="is not a provider cassettes record or replay"):
        replay(copy, log_dir=tmp_path / "logs")


def test_run_cassette_option__records_then_replays_what_the_cli_was_given(tmp_path):
    import argparse

    from checkout_consent.cli.cassettes import cassette_run
    from checkout_consent.families import world_named

    world = world_named("storefront")
    with serving(port=0) as server:
        args = argparse.Namespace(
            model="openai/storefront-idle",
            cassette="record",
            cassette_root=str(tmp_path),
            model_base_url=server.url + "/v1",
            M=["responses_api=false"],
            epochs=None,
            max_connections=2,
            log_dir=str(tmp_path / "logs"),
        )
        recorded, _ = cassette_run(args, world, {"seeds": "5"})
    manifest = store.Manifest.read(tmp_path / "storefront" / "openai--storefront-idle")
    assert (manifest.task_args, manifest.model_args) == ({"seeds": "5"}, {"responses_api": False})
    assert (manifest.epochs, manifest.max_connections) == (1, 2)
    replayed, log_path = cassette_run(
        argparse.Namespace(**{**vars(args), "cassette": "replay"}), world, {"seeds": "0-9"}
    )  # run.json, not these, decides
    assert replayed == recorded and len(replayed) == 1 and Path(log_path).exists()


def test_replay__a_recorded_request_never_made_is_a_difference(recorded, tmp_path):
    copy = shutil.copytree(recorded["openai"], tmp_path / "extra")
    unit = store.read_units(copy)["seed-0-1"]
    last = unit.requests[-1]
    extra = last.model_copy(
        update={
            "keep": last.keep + len(last.add),
            "add": ["0" * PART_HEX],
            "digest": "1" * 64,
        }
    )
    extra = extra.model_copy(update={"last": "user: a turn nobody took"})
    check = compact.seal(extra.model_dump(), unit.frames[extra.frame], unit.unit)
    rewrite(copy, "seed-0-1", [*unit.requests, extra.model_copy(update={"check": check})])
    outcome = replay(copy, log_dir=tmp_path / "logs")
    assert len(outcome.differences) == 1
    assert "never made" in outcome.differences[0]
    assert "a turn nobody took" in outcome.differences[0]


def test_record__twice_gives_byte_identical_cassettes(tmp_path):
    """Refreshing unchanged references must show no diff: ids, usage and packing are fixed."""
    with serving(port=0) as server:
        m = store.Manifest(
            "storefront",
            "anthropic/storefront-idle",
            server.url,
            {},
            {"seeds": "1"},
            max_connections=2,
        )
        dirs = [
            record(
                m, root=tmp_path / name, log_dir=tmp_path / "logs", eval_args=LOCAL_EVAL_ARGS
            ).directory
            for name in ("a", "b")
        ]
    first, second = ([p.read_bytes() for p in store.cassette_files(d)] for d in dirs)
    assert first and first == second
