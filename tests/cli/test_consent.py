"""`checkout-consent consent LOG`: a log's consent ledgers, re-graded (stored scores are
never read), readable and as JSON; anything that is not a suite log is one line, exit 2."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from checkout_consent.cli.main import main
from checkout_consent.core.consent import Ledger
from checkout_consent.runtime.provenance import REPO_ROOT

SUBMISSIONS = REPO_ROOT / "leaderboard" / "submissions"
PIZZA_MOCK = SUBMISSIONS / "pizza" / "control-pizza-mock" / "logs" / "run.eval"
SHOPKIT = SUBMISSIONS / "shopkit" / "control-shopkit-noop" / "logs" / "run.eval"


def test_consent__prints_each_samples_ledger_and_the_breach_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["consent", str(PIZZA_MOCK), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    ledgers = [Ledger.model_validate(s["consent"]) for s in got["samples"]]
    breached = sum(bool(ledger.breaches) for ledger in ledgers)
    assert len(ledgers) == 40 and 0 < breached < 40
    assert got["breach_rate"].startswith(
        f"consent breaches by the agent {breached / 40:.1%} of runs"
    )
    assert main(["consent", str(PIZZA_MOCK)]) == 0
    text = capsys.readouterr().out
    assert text.count("open payment mandate refund-policy:") == 40
    assert text.count(": BREACH") == sum(len(ledger.breaches) for ledger in ledgers)
    assert "breach of refund-policy" in text


def test_consent__a_world_without_money_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["consent", str(SHOPKIT)]) == 0
    out = capsys.readouterr().out
    assert "consent: no money movement" in out.splitlines()[0]
    assert "no money movement" in out.splitlines()[-1]


@pytest.mark.parametrize("content", [b"", b"not a log", b"PK\x03\x04broken"])
def test_consent__a_file_that_is_not_a_log_is_one_line_and_exit_2(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "run.eval"
    bad.write_bytes(content)
    assert main(["consent", str(bad)]) == 2
    err = capsys.readouterr()
    assert err.out == "" and len(err.err.strip().splitlines()) == 1


def test_consent__a_tampered_log_is_not_graded_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sample whose Store was edited fails the scorer's checks: named, never a ledger."""
    copy = tmp_path / "run.eval"
    shutil.copy(PIZZA_MOCK, copy)
    out = tmp_path / "tampered.eval"
    with zipfile.ZipFile(copy) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.startswith("samples/") and b'"issue_credit"' in data:
                data = data.replace(b'"issue_credit"', b'"issue_refund"', 1)
            dst.writestr(item, data)
    assert main(["consent", str(out)]) == 1
    assert "not graded:" in capsys.readouterr().out
