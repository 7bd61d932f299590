"""The one reader of untrusted files and trees: a symlink, a special file or a file over its
cap is refused in one line naming the path and why, a tree is walked without following a
link, up to a cap on entries and a depth, and every surface that reads a stranger's file
refuses alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from checkout_consent.runtime import untrusted
from checkout_consent.runtime.untrusted import Refused


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "a" / "b" / "c").mkdir(parents=True)
    (root / "top.txt").write_text("top")
    (root / "a" / "mid.txt").write_text("mid")
    (root / "a" / "b" / "c" / "deep.txt").write_text("deep")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (tmp_path / "secret").write_text("not yours")
    (root / "link").symlink_to(tmp_path / "secret")
    (root / "up").symlink_to(tmp_path, target_is_directory=True)
    os.mkfifo(root / "fifo")
    return root


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("missing", "no such file"),
        ("link", "is a symlink (links are never followed)"),
        ("fifo", "is not a regular file"),
        ("a", "is not a regular file"),
        ("big", "is larger than 1 KB (1,025 bytes)"),
    ],
)
def test_read_bytes__refuses_in_one_line_naming_the_path(
    tmp_path: Path, name: str, why: str
) -> None:
    root = _tree(tmp_path)
    (root / "big").write_bytes(b"x" * 1025)
    with pytest.raises(Refused) as refused:
        untrusted.read_bytes(root / name, 1024)
    assert str(refused.value) == f"{root / name}: {why}"
    assert untrusted.read_bytes(root / "top.txt", 3) == b"top"


def test_walk__lists_every_entry_and_follows_no_link(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    found = {e.rel: e.why for e in untrusted.walk(root, max_entries=20, skip=["__pycache__"])}
    assert found == {
        "a": None,
        "a/b": None,
        "a/b/c": None,
        "a/b/c/deep.txt": None,
        "a/mid.txt": None,
        "fifo": "is not a regular file",
        "link": untrusted.LINK,
        "top.txt": None,
        "up": untrusted.LINK,
    }
    shallow = {e.rel: e.why for e in untrusted.walk(root, max_entries=20, depth=1)}
    assert shallow["a/b"] == "is a folder nested deeper than 1 levels" and "a/b/c" not in shallow
    assert shallow["__pycache__/x.pyc"] is None  # not skipped: a file of a folder entered


def test_walk__refuses_a_linked_root_and_a_tree_past_its_cap(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (tmp_path / "alias").symlink_to(root, target_is_directory=True)
    with pytest.raises(Refused, match="alias: is a symlink"):
        untrusted.walk(tmp_path / "alias", max_entries=20)
    with pytest.raises(Refused, match="holds more than 3 files and folders"):
        untrusted.walk(root, max_entries=3)
    with pytest.raises(Refused, match="fifo: is not a regular file"):  # the first, by path
        untrusted.files(root, max_entries=20)
    assert untrusted.files(root / "a" / "b" / "c", max_entries=1) == [root / "a/b/c/deep.txt"]
    with pytest.raises(Refused, match="this directory holds no folders"):
        untrusted.files(root / "a", max_entries=5, depth=0)


def test_read_bytes__a_fifo_or_link_swapped_in_after_its_check_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    monkeypatch.setattr(untrusted, "regular", lambda path, limit=None: 0)  # its check passed
    with pytest.raises(Refused, match="fifo: is not a regular file"):  # opened, never waited on
        untrusted.read_bytes(root / "fifo", 10)
    with pytest.raises(Refused, match="link: "):  # O_NOFOLLOW
        untrusted.read_bytes(root / "link", 10)
