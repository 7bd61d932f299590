"""A copied run under a new name: another submission's logs with the model's name replaced
everywhere are refused, naming the submission copied; the same model's declared
re-submission (`resubmission_of`) is accepted."""

import functools
import tempfile
from pathlib import Path

from checkout_consent.leaderboard.validate import validate
from tests.leaderboard.helpers import SUBMISSIONS, copy_example, edit_card

ORIGINAL = ("storefront", "control-storefront-cautious")
OLD_MODEL = "control/storefront-cautious"


@functools.cache
def _renamed_log(new_model: str) -> bytes:
    """The original's log with its model renamed everywhere (every byte of its text), as a
    copier would write it; made once per module (a log is read, dumped and written again)."""
    from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

    path = SUBMISSIONS / ORIGINAL[0] / ORIGINAL[1] / "logs"
    text = read_eval_log(str(path / "run.eval")).model_dump_json()
    short, new_short = OLD_MODEL.split("/")[1], new_model.split("/")[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "run.eval")
        renamed = text.replace(OLD_MODEL, new_model).replace(short, new_short)
        write_eval_log(EvalLog.model_validate_json(renamed), str(out))
        return out.read_bytes()


def _renamed_copy(tmp, new_id, new_model=None):
    """The original beside a copy of it named `new_id`, its model renamed everywhere (every
    byte of the log's text and the card), as a copier would."""
    copy_example(tmp, *ORIGINAL)
    copy = copy_example(tmp / "copies", *ORIGINAL).rename(tmp / ORIGINAL[0] / new_id)
    if new_model is not None:
        (copy / "logs" / "run.eval").write_bytes(_renamed_log(new_model))
    model = new_model or OLD_MODEL

    def card(data):
        data.update(submission_id=new_id, kind="model")
        data["model"].update(id=model, provider=model.split("/")[0])
        if new_model is not None:
            data["cost"]["list_usd"] = None  # no list price for the new name

    edit_card(copy, card)
    return copy


def test_validate__copied_run_under_a_new_model_name_is_refused(tmp_path):
    copy = _renamed_copy(tmp_path, "acme-1-public", "openai/acme-1")
    original = validate(tmp_path / ORIGINAL[0] / ORIGINAL[1], cassettes=False)
    # CI validates the pull request's new folder; the board (which validates every folder)
    # would refuse the pair whichever came first: it never holds one run twice
    assert original.refusals == [
        r for r in original.refusals if "equal submission acme-1-public's (openai/acme-1)" in r
    ]
    first = min((s.id, s.epoch) for s in original.samples)
    n = len(original.samples)
    verdict = validate(copy, cassettes=False)
    copies = [r for r in verdict.refusals if "a copied run" in r]
    assert copies == [
        f"{n} of {n} sample(s) equal submission {ORIGINAL[1]}'s ({OLD_MODEL}), "
        f"e.g. {first[0]} epoch {first[1]}: a copied run (the same model's "
        f"re-submission declares `resubmission_of: {ORIGINAL[1]}`)"
    ]
    assert verdict.refusals == copies  # nothing else gives it away


def test_validate__resubmission_declared_for_another_model_is_still_refused(tmp_path):
    copy = _renamed_copy(tmp_path, "acme-1-public", "openai/acme-1")
    edit_card(copy, lambda card: card.update(resubmission_of=ORIGINAL[1]))
    verdict = validate(copy, cassettes=False)
    assert any("a copied run" in r for r in verdict.refusals), verdict.refusals


def test_validate__same_models_declared_resubmission_is_accepted(tmp_path):
    copy = _renamed_copy(tmp_path, "cautious-again")
    assert any("a copied run" in r for r in validate(copy, cassettes=False).refusals)
    edit_card(copy, lambda card: card.update(resubmission_of=ORIGINAL[1]))
    verdict = validate(copy, cassettes=False)
    assert verdict.ok, verdict.refusals


def test_shared_grades__a_board_build_reads_each_log_once_and_still_finds_the_copy(
    tmp_path, monkeypatch
):
    from checkout_consent.leaderboard import validate as validating
    from checkout_consent.runtime import regrade as judged

    copy = _renamed_copy(tmp_path, "acme-1-public", "openai/acme-1")
    original = tmp_path / ORIGINAL[0] / ORIGINAL[1]
    alone = [validate(f, cassettes=False).refusals for f in (original, copy)]
    reads: list[str] = []
    real_read = judged._read
    monkeypatch.setattr(judged, "_read", lambda p: reads.append(str(p)) or real_read(p))
    with validating.shared_grades():
        shared = [validate(f, cassettes=False).refusals for f in (original, copy)]
    assert shared == alone and any("a copied run" in r for r in shared[1])
    assert sorted(reads) == sorted({*reads}) and len(reads) == 2  # each of the two logs once
    validate(copy, cassettes=False)  # outside, nothing is kept: the log is read again
    assert len(reads) == 3
