"""`submit validate` refuses every broken submission, each with a line that says why, and
accepts the committed examples. Broken ones are made here, from the examples, in tmp."""

import gzip
import json
import shutil

import pytest

from checkout_consent.cli.main import main
from checkout_consent.leaderboard.board import validated
from checkout_consent.leaderboard.validate import validate
from checkout_consent.runtime.ladder import REAL as REAL_MODELS
from tests.leaderboard.helpers import (
    SMALL,
    STOREFRONT,
    SUBMISSIONS,
    copy_example,
    edit_card,
    edit_log,
    planted_key,
)

EXAMPLES = sorted(p for p in SUBMISSIONS.glob("*/*") if p.is_dir())


def _refused(folder, says):
    verdict = validate(folder, cassettes=False)
    assert not verdict.ok
    assert any(says in r for r in verdict.refusals), verdict.refusals
    return verdict


def test_validate__every_committed_example_is_accepted():
    assert len({p.parent.name for p in EXAMPLES}) >= 3
    for folder in EXAMPLES:
        verdict = validated(folder)  # validate(cassettes=False), once a process (the board's)
        assert verdict.ok, (folder, verdict.refusals)
        assert verdict.transcript and verdict.card is not None
        # the controls' examples, and the committed runs of real models (runtime.ladder.REAL)
        real = verdict.card.model.id in REAL_MODELS
        assert verdict.card.kind == ("model" if real else "control"), folder


def test_validate__forged_trace_fails_integrity(tmp_path):
    sub = copy_example(tmp_path, *STOREFRONT)

    def forge(log):
        call = log.samples[0].store["RunStore:calls"][0]
        call["observation"] += " (edited)"

    edit_log(sub, forge)
    _refused(sub, "INTEGRITY: the trace does not replay")


def test_validate__trace_pasted_from_another_run_is_refused(tmp_path):
    """An idle-looking log cannot borrow the oracle's trace: the trace must be the
    conversation's run (the trust work's reconciliation, reached through validate)."""
    from inspect_ai.log import read_eval_log

    sub = copy_example(tmp_path, "storefront", "control-storefront-gullible")
    oracle = read_eval_log(str(SUBMISSIONS / STOREFRONT[0] / STOREFRONT[1] / "logs" / "run.eval"))

    def paste(log):
        donor = next(s for s in oracle.samples if s.id == log.samples[0].id)
        for key in ("RunStore:calls", "RunStore:generations"):
            log.samples[0].store[key] = donor.store[key]

    edit_log(sub, paste)
    _refused(sub, "INTEGRITY: the trace is not the conversation's run")


def test_validate__pasted_scenario_of_another_family_is_refused(tmp_path):
    sub = copy_example(tmp_path, *STOREFRONT)

    def paste(log):
        log.samples[0].metadata["scenario"]["family"] = "pizza"

    edit_log(sub, paste)
    _refused(sub, "INTEGRITY: the sample is a 'pizza' scenario, not storefront")


def test_validate__part_of_the_set_is_listed_with_its_coverage_never_ranked(tmp_path):
    """Logs playing part of the card's task set (and nothing else) are accepted as a
    partial submission: listed with its coverage and figures, never ranked."""
    from checkout_consent.families import world_named
    from checkout_consent.leaderboard.board import _view, entry
    from checkout_consent.leaderboard.examples import _card, dump_card
    from checkout_consent.leaderboard.render import markdown

    sub = copy_example(tmp_path, "pizza", "model-pizza-qwen-coder-0.5b")
    edit_log(sub, lambda log: log.samples.pop())
    real = "openai-api/llama/qwen2.5-coder-0.5b-instruct-q4_k_m"  # the runs left, re-carded
    card = _card(world_named("pizza"), "", sub / "logs" / "run.eval", real)
    (sub / "submission.yaml").write_text(dump_card(card))
    verdict = validate(sub, cassettes=False)
    assert verdict.ok and verdict.partial == (39, 40), verdict.refusals
    assert "partial: 39 of 40 runs of the task set: listed, not ranked" in verdict.status()
    made = entry(verdict, sub)
    assert not made.ranked
    view = _view(made.world, "", "", [made])
    assert [r.rank for r in view.rows] == [""]
    board = markdown([view])
    assert "| partial | " in board and "q4_k_m (own template) (partial: 39 of 40 runs)" in board
    assert "never ranked" in board
    model = "openai-api/llama/qwen2.5-coder-0.5b-instruct-q4_k_m"
    suite = board.split("## pizza")[0]  # the suite-wide table: one row a model
    assert f"| {model} (own template) | " in suite and "(partial: 39 of 40 runs) |" in suite, suite


def test_validate__more_epochs_declared_than_played_is_partial(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    edit_card(sub, lambda card: card.update(epochs=2))
    assert validate(sub, cassettes=False).partial == (5, 10)


def test_validate__a_run_twice_is_still_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    shutil.copyfile(sub / "logs" / "run.eval", sub / "logs" / "again.eval")
    _refused(sub, "a (sample, epoch) appears more than once across the logs")


def test_validate__wrong_world_version_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    edit_card(sub, lambda card: card.update(world_version="shopkit-0"))
    _refused(sub, "world version 'shopkit-0' is unknown to this suite")


def test_validate__log_of_an_unknown_world_version_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)

    def old(log):
        log.eval.task_version = 0

    edit_log(sub, old)
    _refused(sub, "world version 'shopkit-0' is unknown to this suite (it grades shopkit-")


def test_validate__card_tokens_that_disagree_with_the_logs_are_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    edit_card(sub, lambda card: card["tokens"].update(input=1))
    _refused(sub, "card tokens 1 in")


def test_validate__card_cost_that_disagrees_is_refused(tmp_path):
    sub = copy_example(tmp_path, *STOREFRONT)
    edit_card(sub, lambda card: card["cost"].update(normalized_usd=0.3))
    _refused(sub, "card normalized cost 0.3, the logs' tokens give ")


def test_validate__bad_card_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    edit_card(sub, lambda card: card.pop("model"))
    _refused(sub, "submission.yaml: model: Field required")


def test_validate__card_of_another_model_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    edit_card(sub, lambda card: card["model"].update(id="openai/gpt-9"))
    _refused(sub, "model 'openai/shopkit-noop', the card says 'openai/gpt-9'")


def test_validate__planted_key_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    (sub / "README.md").write_text(f"my key is {planted_key()}\n")
    verdict = _refused(sub, "README.md: openai key")
    assert planted_key() not in verdict.render() + json.dumps(verdict.to_json())


def test_validate__planted_key_inside_a_log_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)

    def plant(log):
        log.eval.metadata = {"note": planted_key()}

    edit_log(sub, plant)
    _refused(sub, "openai key")


def test_validate__folder_named_otherwise_than_the_card_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    moved = sub.rename(sub.parent / "someone-else")
    _refused(moved, "the folder must be <family>/<submission_id>")


def test_validate__no_transcript_is_accepted_but_not_ranked(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    for log in (sub / "logs").iterdir():
        log.unlink()
    verdict = validate(sub, cassettes=False)
    assert verdict.ok and not verdict.transcript
    assert "not ranked" in verdict.render()


def test_submit_validate__cli_prints_one_screen_and_exits_zero_on_accept(tmp_path, capsys):
    sub = copy_example(tmp_path, *SMALL)
    assert main(["submit", "validate", "--no-cassettes", str(sub)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ACCEPTED") and len(out.splitlines()) <= 24


def test_submit_validate__json_lists_every_refusal(tmp_path, capsys):
    sub = copy_example(tmp_path, *SMALL)
    shutil.copyfile(sub / "logs" / "run.eval", sub / "logs" / "again.eval")
    assert main(["submit", "validate", "--no-cassettes", "--json", str(sub)]) == 1
    [verdict] = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "REFUSED" and verdict["samples"] == 10
    assert any("more than once" in r for r in verdict["refusals"])
    (sub / "logs" / "again.eval").unlink()
    edit_card(sub, lambda card: card.update(epochs=3))  # part of the set: listed, unranked
    assert main(["submit", "validate", "--no-cassettes", "--json", str(sub)]) == 0
    [verdict] = json.loads(capsys.readouterr().out)
    assert verdict["partial"] == [5, 15] and verdict["status"].startswith("ACCEPTED (partial")


@pytest.mark.inspect
def test_validate__included_cassettes_replay_to_the_regraded_records(tmp_path):
    sub = copy_example(tmp_path, *SMALL, cassettes=True)
    assert validate(sub).ok
    golden = next((sub / "cassettes").glob("*/T1-1.golden.json.gz"))
    data = json.loads(gzip.decompress(golden.read_bytes()))
    data["change"] = 1.0
    golden.write_bytes(gzip.compress(json.dumps(data).encode()))
    verdict = validate(sub)
    assert any("T1-1: change golden 1.0" in r for r in verdict.refusals), verdict.refusals


def test_compare__replayed_tokens_and_runs_must_match_the_log():
    from checkout_consent.leaderboard.validate import SampleGrade, Verdict, _compare

    verdict = Verdict(
        "d", samples=[SampleGrade("T1", 1, {"change": 1.0, "grade_seconds": 1}, None, 10, 2)]
    )
    same = {
        "T1-1": {
            "change": 1.0,
            "grade_seconds": 9,
            "provenance": {"input_tokens": 10, "output_tokens": 2},
        }
    }
    assert _compare("c", same, verdict) == []
    fewer = {"T1-1": {**same["T1-1"], "provenance": {"input_tokens": 1, "output_tokens": 2}}}
    assert _compare("c", fewer, verdict) == ["c: T1-1: the replayed tokens differ from the log's"]
    assert _compare("c", {**same, "T2-1": same["T1-1"]}, verdict)[0].startswith(
        "c: replays 2 run(s), the logs hold 1"
    )
