"""The scoring service without `--db` stores in the user's data folder, never in the
current directory: `serve-api`, `mcp` and `serve-token` share one default file
(`serve.api.storage.default_db`), so a service started in a checkout leaves nothing in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkout_consent.cli.main import main, parser
from checkout_consent.serve.api.app import DB_ENV, from_environment
from checkout_consent.serve.api.storage import Storage, default_db


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home and working directory, with no $XDG_DATA_HOME."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv(DB_ENV, raising=False)
    work = tmp_path / "checkout"
    work.mkdir()
    monkeypatch.chdir(work)
    return tmp_path


def test_default_db__is_in_the_users_data_folder(home: Path, monkeypatch: pytest.MonkeyPatch):
    assert default_db() == str(home / "home/.local/share/checkout-consent/scoring.db")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert default_db() == str(home / "data/checkout-consent/scoring.db")


def test_serve_token__without_db_leaves_no_file_in_the_working_directory(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve-token", "--agent", "alice"]) == 0
    assert capsys.readouterr().out.strip()  # the token
    assert list((home / "checkout").iterdir()) == []
    stored = Storage(default_db())  # serve-api and mcp read the same file
    assert Path(stored.target).is_file() and stored.target.startswith(str(home / "home"))


def test_serve_api_and_mcp__default_to_the_same_file(home: Path) -> None:
    for verb in (["serve-api"], ["mcp"], ["serve-token", "--agent", "a"]):
        assert parser().parse_args(verb).db is None  # resolved to default_db() when run
    from_environment()  # a uvicorn worker started without $CHECKOUT_CONSENT_DB
    assert list((home / "checkout").iterdir()) == []
    assert Path(default_db()).is_file()
