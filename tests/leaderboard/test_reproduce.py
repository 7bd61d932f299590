"""`checkout-consent reproduce SUBMISSION`: the card's model re-run on the submission's
samples must give a headline within the submission's 95% CI. A control model stands in for
a maintainer's key: a submission made from `control/...` logs reproduces and is marked on
the board; another control's logs relabelled as that control do not."""

import pytest
import yaml

from checkout_consent.cli.main import main
from checkout_consent.leaderboard.board import load
from checkout_consent.leaderboard.render import cells
from checkout_consent.leaderboard.reproduce import RECORD_NAME, reproduce, reproduced
from tests.leaderboard.helpers import copy_example, edit_card

pytestmark = pytest.mark.inspect
CAUTIOUS = ("storefront", "control-storefront-cautious")


def test_reproduce__control_submission_reproduces_and_the_board_marks_it(tmp_path, capsys):
    board = tmp_path / "leaderboard"
    sub = copy_example(board / "submissions", *CAUTIOUS)
    assert main(["reproduce", "--record", str(sub)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"REPRODUCED  {CAUTIOUS[0]}/{CAUTIOUS[1]}: control/storefront-")
    marks = yaml.safe_load((board / RECORD_NAME).read_text())
    assert set(marks) == {f"{CAUTIOUS[0]}/{CAUTIOUS[1]}"} and reproduced(board, sub)
    [entry] = load(board / "submissions")[CAUTIOUS[0]]
    assert entry.reproduced
    from checkout_consent.leaderboard.board import _row
    assert cells(_row(entry))[1] == f"{CAUTIOUS[1]} (reproduced)"
    (sub / "README.md").write_text("changed after the re-run\n")
    assert not reproduced(board, sub)  # the mark holds only for the bytes re-run


def test_reproduce__another_controls_run_relabelled_does_not_reproduce(tmp_path, capsys):
    from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

    sub = copy_example(tmp_path, "storefront", "control-storefront-gullible")
    path = sub / "logs" / "run.eval"
    text = read_eval_log(str(path)).model_dump_json()
    write_eval_log(EvalLog.model_validate_json(text.replace(
        "openai/storefront-gullible", "control/storefront-cautious")), str(path))
    edit_card(sub, lambda card: card["model"].update(id="control/storefront-cautious",
                                                     provider="control"))
    edit_card(sub, lambda card: card["cost"].update(list_usd=0.0))
    done = reproduce(sub)
    assert not done.ok
    mean, low, high = done.claimed
    assert not low <= done.rerun <= high
    assert main(["reproduce", "--record", str(sub)]) == 1
    assert capsys.readouterr().out.startswith("NOT REPRODUCED  storefront/control-storefront-")
    assert not (tmp_path.parent / RECORD_NAME).exists()
