"""storefront_v1's reference cassettes (a 30-day month per unit): committed compactly under
the world's own folder (`cassettes/storefront_v1/`, its controls named by their family,
`storefront-<control>`), a month replays exactly with no key and no network, and a tampered
one is refused naming the request. The whole tree replays under `-m slow` (test_replay.py)."""

import json
from pathlib import Path

import pytest

from checkout_consent.cassettes import compact, store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.preflight import check_directory
from checkout_consent.cassettes.runs import references, replay
from checkout_consent.cassettes.session import CassetteMiss, UnitPersister
from checkout_consent.families import world_named
from tests.cassettes.forge import copy_units, forge_response

pytestmark = [pytest.mark.cassette]
WORLD = world_named("storefront_v1")


def _directory(control: str) -> Path:
    return next(
        r for r in references() if r.family == WORLD.name and r.control == control
    ).directory()


def _one_unit(tmp_path: Path, control: str = "oracle") -> tuple[Path, str]:
    """A copy of a committed storefront_v1 run holding its shortest month alone."""
    source = _directory(control)
    units = store.read_units(source)
    unit = min(sorted(units), key=lambda name: len(units[name].requests))
    seed = unit.split("-")[1]
    copy = tmp_path / source.name
    copy_units(
        source, copy, lambda names: [unit], {**dict(WORLD.dataset.public_args), "seeds": seed}
    )
    return copy, unit


def test_adversary_references__oracle_and_gullible_over_the_public_seeds():
    runs = {r.control for r in references() if r.family == WORLD.name}
    assert runs == {"oracle", "gullible"}
    for control in runs:
        directory = _directory(control)
        # its own world's folder, never its family's; the control keeps its family's name
        assert directory == store.CASSETTE_ROOT / WORLD.name / f"openai--storefront-{control}"
        manifest = check_directory(directory)
        assert (manifest.family, manifest.model) == (WORLD.name, f"openai/storefront-{control}")
        assert manifest.task_args == dict(WORLD.dataset.public_args)
        units = set(store.read_units(directory))
        assert units == {f"seed-{s}-1" for s in range(10)} == set(store.read_goldens(directory))
        assert [p.name for p in store.cassette_files(directory)] == [store.CASSETTE]


def test_adversary_cassette__a_changed_response_is_refused_naming_the_request(tmp_path):
    copy, unit = _one_unit(tmp_path)
    forge_response(copy, unit, 5, lambda body: {**body, "id": "forged"}, reseal=False)
    with pytest.raises(CassetteRefused) as refused:
        UnitPersister.load_cassette(copy)
    message = str(refused.value)
    assert str(copy / store.CASSETTE) in message
    assert f"unit {unit} request 5: its stored check does not match" in message


@pytest.mark.slow  # ~15 s of Inspect; the default run proves the same on a 5-day run
@pytest.mark.inspect  # (test_replay.py) and refuses a changed storefront_v1 answer above
def test_adversary_cassette__a_forged_answer_is_a_miss_naming_request_and_message(tmp_path):
    copy, unit = _one_unit(tmp_path, "gullible")

    def another_first_call(body: dict) -> dict:
        call = body["choices"][0]["message"]["tool_calls"][0]["function"]
        call["arguments"] = json.dumps({**json.loads(call["arguments"]), "forged": True})
        return body

    forge_response(copy, unit, 0, another_first_call)  # check recomputed: the run tells
    answer_at = len(compact.messages_of(store.read_units(copy)[unit], 0))
    with pytest.raises(CassetteMiss) as miss:
        replay(copy, log_dir=tmp_path / "logs")
    message = str(miss.value)
    assert str(copy) in message and ", request 1]" in message
    assert f"first differing message: {answer_at} (the run sent assistant:" in message


@pytest.mark.inspect
def test_adversary_cassette__a_month_replays_exactly(tmp_path):
    copy, _ = _one_unit(tmp_path)
    outcome = replay(copy, log_dir=tmp_path / "logs")
    assert outcome.differences == []
    assert outcome.records == store.read_goldens(copy)
