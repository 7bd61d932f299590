"""`checkout-consent reproduce SUBMISSION`: the card's model re-run on the submission's
samples must give a headline within the submission's 95% CI. A control model stands in for
a maintainer's key: a submission of a control's logs, relabelled to the `control/`
provider that plays the same policy in-process, reproduces and is marked on the board;
another control's logs claimed for that control do not."""

import pytest
import yaml

from checkout_consent.cli.main import main
from checkout_consent.leaderboard.board import RECORD_NAME, _row, load, reproduced
from checkout_consent.leaderboard.render import cells
from checkout_consent.leaderboard.reproduce import Reproduction
from tests.leaderboard.helpers import copy_example, edit_card

pytestmark = pytest.mark.inspect
CLAIMED = "control/grocery-reference"


def _as_control(tmp, sid):
    """The example `sid` (served by `serve-controls` through the openai provider) claimed
    for the in-process control/grocery-reference: its log relabelled, its card to match."""
    from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

    sub = copy_example(tmp, "grocery", sid)
    path = sub / "logs" / "run.eval"
    log = read_eval_log(str(path))
    text = log.model_dump_json().replace(str(log.eval.model), CLAIMED)
    write_eval_log(EvalLog.model_validate_json(text), str(path))

    def claim(card):
        card["model"].update(id=CLAIMED, provider="control")
        card["cost"]["list_usd"] = 0.0  # the control provider's list price

    edit_card(sub, claim)
    return sub


def test_reproduction__reproduced_when_the_rerun_lies_within_the_ci():
    inside = Reproduction("f/x", "m", (1.0, 0.5, 1.5), 1.5)
    outside = Reproduction("f/x", "m", (1.0, 0.5, 1.5), 1.51)
    assert inside.ok and inside.line().startswith("REPRODUCED  f/x: m re-run gives 1.5000")
    assert not outside.ok and outside.line().startswith("NOT REPRODUCED  f/x")


@pytest.mark.slow
def test_reproduce__control_submission_reproduces_and_the_board_marks_it(tmp_path, capsys):
    board = tmp_path / "leaderboard"
    sub = _as_control(board / "submissions", "control-grocery-reference")
    assert main(["reproduce", "--record", str(sub)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"REPRODUCED  grocery/{sub.name}: {CLAIMED} re-run gives ")
    marks = yaml.safe_load((board / RECORD_NAME).read_text())
    assert set(marks) == {f"grocery/{sub.name}"} and reproduced(board, sub)
    [entry] = load(board / "submissions")["grocery"]
    assert entry.reproduced
    assert cells(_row(entry))[1] == f"{sub.name} (reproduced)"
    (sub / "README.md").write_text("changed after the re-run\n")
    assert not reproduced(board, sub)  # the mark holds only for the bytes re-run


@pytest.mark.slow
def test_reproduce__another_controls_run_claimed_for_it_does_not_reproduce(tmp_path, capsys):
    sub = _as_control(tmp_path, "control-grocery-gullible")
    assert main(["reproduce", "--record", str(sub)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"NOT REPRODUCED  grocery/{sub.name}: {CLAIMED} re-run gives ")
    assert not (tmp_path.parent / RECORD_NAME).exists()
