"""The service verbs refuse what they must before serving anything: one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkout_consent.cli.main import main
from checkout_consent.cli.service import loopback


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("10.0.0.5", False),
        ("example.com", False),
    ],
)
def test_loopback__only_loopback_addresses_pass(host: str, expected: bool) -> None:
    assert loopback(host) is expected


def test_serve_api__refuses_a_public_bind_without_the_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve-api", "--host", "0.0.0.0"]) == 2
    assert "--allow-remote" in capsys.readouterr().err


def test_serve_api__an_unopenable_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve-api", "--db", str(tmp_path / "no" / "such" / "x.db")]) == 2
    err = capsys.readouterr().err
    assert "cannot open the database" in err and "Traceback" not in err
