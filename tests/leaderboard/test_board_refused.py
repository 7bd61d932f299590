"""One refused folder under submissions/ does not take the board down: `leaderboard build`
builds every other submission's rows, names the refused folder and exits non-zero."""

import shutil
from pathlib import Path

from checkout_consent.cli.main import main
from checkout_consent.leaderboard.validate import shared_grades
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.leaderboard.helpers import edit_card

BOARD = REPO_ROOT / "leaderboard"
BROKEN = "storefront/model-storefront-qwen-coder-1.5b-fenced"  # one sample to re-grade


def test_leaderboard_build__builds_the_rest_and_names_the_one_refused(tmp_path: Path, capsys):
    root = tmp_path / "leaderboard"
    for world in ("pizza", "storefront"):  # two worlds' folders: the rest build alike
        shutil.copytree(BOARD / "submissions" / world, root / "submissions" / world)
    edit_card(root / "submissions" / BROKEN, lambda card: card.update(contact=""))
    (root / "README.md").write_text("stale\n")
    with shared_grades():  # the two builds below re-grade each log once
        assert main(["leaderboard", "build", "--root", str(root)]) == 1
        err = capsys.readouterr().err
        (line,) = [x for x in err.splitlines() if x.startswith("left off the board: ")]
        assert BROKEN in line and "refused: submission.yaml: contact:" in line
        board = (root / "README.md").read_text()
        assert f"submissions/{BROKEN}/" not in board  # left off
        assert "control-pizza-reference" in board and "control-storefront-oracle" in board
        assert main(["leaderboard", "build", "--check", "--root", str(root)]) == 1
        assert "left off the board: " in capsys.readouterr().err  # --check names it too
