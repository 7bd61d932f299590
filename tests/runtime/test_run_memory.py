"""What keeps a long run's memory flat: every tool is built once per process (Inspect keeps
the parsed description of every tool function it ever sees, for the life of the process),
and an in-process control runs few samples at once (benchmarks/memory.py shows both)."""

from __future__ import annotations

import importlib

import pytest

from checkout_consent.families import names
from checkout_consent.runtime.compat import tool_info_cache_size
from checkout_consent.runtime.runner import CONTROL_MAX_SAMPLES, sample_concurrency


def _tools(name: str) -> list[object]:
    return importlib.import_module(f"checkout_consent.{name}.tools").tools()


@pytest.mark.parametrize("name", names())
def test_family_tools__are_the_same_objects_for_every_sample(name):
    first, second = _tools(name), _tools(name)
    assert [id(t) for t in first] == [id(t) for t in second]


def test_family_tools__a_further_sample_adds_nothing_to_inspects_tool_cache():
    for name in names():
        _tools(name)
    before = tool_info_cache_size()
    for name in names():
        _tools(name)
    assert tool_info_cache_size() == before


@pytest.mark.parametrize(
    "models, given, expected",
    [
        (["control/storefront-oracle"], {}, CONTROL_MAX_SAMPLES),
        (["control/storefront-oracle", "control/storefront-idle"], {}, CONTROL_MAX_SAMPLES),
        (["control/storefront-oracle"], {"max_samples": 3}, 3),
        (["control/storefront-oracle"], {"max_connections": 4}, None),
        (["control/storefront-oracle", "openai/gpt-4.1"], {}, None),
        (["openai/gpt-4.1"], {"max_samples": None}, None),
    ],
)
def test_sample_concurrency__bounds_only_in_process_controls_unless_asked(models, given, expected):
    assert sample_concurrency(models, given) == {"max_samples": expected}


def test_log_buffer__is_inspects_own_below_1000_samples_and_its_1000_figure_above():
    from checkout_consent.runtime.compat import default_log_buffer
    from checkout_consent.runtime.runner import LOG_BUFFER, log_buffer

    assert log_buffer(999) is None and log_buffer(1) is None
    assert log_buffer(1000) == log_buffer(10_000) == log_buffer(10**6) == LOG_BUFFER
    assert default_log_buffer(1000) == LOG_BUFFER


@pytest.mark.parametrize("seeds, buffer", [("0-9", None), ("0-999", 50), ("0-9999", 50)])
def test_run__passes_the_log_buffer_for_its_size(seeds, buffer, monkeypatch, capsys):
    import checkout_consent.cli.main as cli
    from checkout_consent.cli import run as cli_run
    from checkout_consent.runtime.runner import RunFailed

    seen: dict[str, object] = {}

    def run_models(*args: object, **kwargs: object) -> None:
        seen.update(kwargs)
        raise RunFailed("stopped here")

    monkeypatch.setattr(cli_run, "run_models", run_models)
    cli.main(["run", "storefront", "--model", "control/storefront-idle", "--seeds", seeds])
    assert "stopped here" in capsys.readouterr().err
    assert seen["log_buffer"] == buffer and seen["max_samples"] is None


@pytest.mark.inspect
def test_run_records__are_read_through_one_zip_directory_whatever_the_run_size():
    """Reading a run back opened the log and parsed its zip directory again per sample:
    quadratic in the run's size (a 10,000-sample run spent over 10 CPU-minutes there). Read
    from a committed 40-sample run (pizza's reference control), so no run is played here."""
    import json

    from inspect_ai.log import read_eval_log

    from checkout_consent.runtime import runner
    from checkout_consent.runtime.compat import zip_directory_reads
    from checkout_consent.runtime.provenance import REPO_ROOT

    log = REPO_ROOT / "leaderboard/submissions/pizza/control-pizza-reference/logs/run.eval"
    full = read_eval_log(str(log))
    want = [s.scores["pizza_scorer"].metadata["record"] for s in full.samples or []]
    header = read_eval_log(str(log), header_only=True)
    with zip_directory_reads() as parsed:
        again = runner.log_records(header)
    assert sorted(map(json.dumps, again)) == sorted(map(json.dumps, want)) and len(again) > 10
    assert len(parsed) == 2  # the header, and one reader for every sample
