"""`checkout-consent rescore LOG --output-file NEW`: `inspect score` with the log's own
world's scorer, where checkout-consent is the entry point: a missing, cut or foreign log is
one line and a non-zero exit (Inspect's own `inspect score` prints a traceback), and a
finished log is re-scored to NEW with its headline printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkout_consent.cli.main import main
from checkout_consent.runtime.logs import read_header
from checkout_consent.runtime.provenance import REPO_ROOT

LOG = REPO_ROOT / "leaderboard/submissions/grocery/control-grocery-reference/logs/run.eval"


@pytest.mark.parametrize("content", [None, b"PK\x03\x04 cut short", b"not a zip at all"])
def test_rescore__a_missing_or_cut_log_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    log, out = tmp_path / "run.eval", tmp_path / "new.eval"
    if content is not None:
        log.write_bytes(content)
    assert main(["rescore", str(log), "--output-file", str(out)]) == 2
    said = capsys.readouterr()
    assert said.out == "" and len(said.err.strip().splitlines()) == 1, said.err
    assert said.err.startswith(f"checkout-consent: {log}: ") and "Traceback" not in said.err
    assert not out.exists()


def test_rescore__a_finished_log_is_rescored_by_its_worlds_scorer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "new.eval"
    assert main(["rescore", str(LOG), "--output-file", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == f"{out}: grocery, 11 sample(s) re-scored"
    assert said[1].startswith("  mean score 1.000 (bootstrap 95% CI over tasks 1.000 to 1.000")
    header = read_header(out)
    assert [s.name for s in header.results.scores] == ["grocery_scorer"]
    assert header.results.scores[0].metrics["mean"].value == 1.0
