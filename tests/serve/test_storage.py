"""Stored submissions: immutable in the database itself, schema versioned, WAL mode, and
concurrent writers neither lose nor duplicate a submission."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from checkout_consent.serve.api.storage import Storage, StorageError


def test_storage__rows_cannot_be_updated_or_deleted(storage: Storage) -> None:
    row = storage.add("pizza", "allergen-1", "a", None, {"x": 1}, {"score": 1.0})
    db = sqlite3.connect(storage.target)
    for statement in ["UPDATE submissions SET record = '{}'", "DELETE FROM submissions"]:
        with pytest.raises(sqlite3.DatabaseError, match="immutable"):
            db.execute(statement)
    assert storage.get(row.id) == row


def test_storage__is_created_in_wal_mode_and_reopens(tmp_path: Path) -> None:
    path = str(tmp_path / "new.db")
    Storage(path).add("pizza", "t", "a", None, {}, {})
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert Storage(path).count() == 1


def test_storage__refuses_another_schema_version(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    Storage(path)
    sqlite3.connect(path, isolation_level=None).execute(
        "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
    )
    with pytest.raises(StorageError, match="schema version 99"):
        Storage(path)


def test_storage__an_unopenable_database_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot open"):
        Storage(str(tmp_path / "missing-dir" / "x.db"))


def test_storage__concurrent_writers_lose_and_duplicate_nothing(storage: Storage) -> None:
    def write(i: int) -> str:
        return storage.add("pizza", f"t{i}", f"agent{i % 7}", None, {"i": i}, {"i": i}).id

    with ThreadPoolExecutor(max_workers=32) as pool:
        ids = list(pool.map(write, range(400)))
    assert len(set(ids)) == 400 and storage.count() == 400
    assert sorted(r.record["i"] for r in storage.rows("pizza")) == list(range(400))
