"""The submission folder: plain allowed files only, nothing followed out of it, capped."""

import os
import zipfile

from checkout_consent.leaderboard import submission
from checkout_consent.leaderboard.submission import list_folder
from tests.leaderboard.helpers import SMALL, copy_example


def test_folder__committed_example_lists_its_files(tmp_path):
    sub = copy_example(tmp_path, *SMALL, cassettes=True)
    listing = list_folder(sub)
    assert listing.refusals == []
    assert "submission.yaml" in listing.files and listing.logs() == ["logs/run.eval"]
    assert listing.cassette_runs() == ["cassettes/openai--shopkit-noop"]


def test_folder__symlink_is_refused_and_not_followed(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    outside = tmp_path / "secret.txt"
    outside.write_text("not yours")
    os.symlink(outside, sub / "README.md")
    os.symlink(tmp_path, sub / "logs" / "up")
    refusals = list_folder(sub).refusals
    assert any("README.md: is a symlink" in r for r in refusals)
    assert any("logs/up: is a symlink" in r for r in refusals)


def test_folder__unexpected_file_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    (sub / "conftest.py").write_text("import os\n")
    (sub / "logs" / "notes.txt").write_text("x")
    refusals = list_folder(sub).refusals
    assert any(r.startswith("conftest.py: not a file") for r in refusals)
    assert any(r.startswith("logs/notes.txt: not a file") for r in refusals)


def test_folder__over_the_size_cap_is_refused(tmp_path, monkeypatch):
    sub = copy_example(tmp_path, *SMALL)
    monkeypatch.setattr(submission, "MAX_FILE_BYTES", 1000)
    assert any(": is larger than 1,000 bytes (" in r for r in list_folder(sub).refusals)


def test_folder__zip_bomb_log_is_refused_before_unzipping(tmp_path, monkeypatch):
    sub = copy_example(tmp_path, *SMALL)
    with zipfile.ZipFile(sub / "logs" / "big.eval", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", b"0" * 2_000_000)
    monkeypatch.setattr(submission, "MAX_UNZIPPED_BYTES", 1_000_000)
    assert any(r.startswith("logs/big.eval: unzips to over") for r in list_folder(sub).refusals)


def test_folder__a_log_that_is_not_a_zip_is_refused(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    (sub / "logs" / "fake.eval").write_bytes(b"\x00" * 100)
    assert "logs/fake.eval: not an Inspect .eval log (not a zip)" in list_folder(sub).refusals


def test_folder__grocery_carts_are_stored_and_nothing_else_under_carts(tmp_path):
    sub = copy_example(tmp_path, *SMALL)
    (sub / "carts").mkdir()
    (sub / "carts" / "normal-week.json").write_text("{}")
    (sub / "carts" / "run.sh").write_text("echo hi\n")
    listing = list_folder(sub)
    assert "carts/normal-week.json" in listing.files
    assert [r.split(":")[0] for r in listing.refusals] == ["carts/run.sh"]
