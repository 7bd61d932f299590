"""Stored submissions: one immutable row per accepted submission, in SQLite (WAL) or
PostgreSQL. A database of another schema version is refused, never migrated; triggers
refuse any update or delete, so a stored score cannot change. Agent names are owned
(`agents`): the sha256 of the owner's token, never the token, under the name's two keys."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, NamedTuple

from checkout_consent.core import names
from checkout_consent.serve.api.commit import GroupCommit

# 2: agent names owned (an older database: its names unowned); 3: owned by their keys
SCHEMA_VERSION = 3
COLUMNS = "id, family, task, agent, season, world_version, received_at, submission, record"
TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    id TEXT PRIMARY KEY, family TEXT NOT NULL, task TEXT NOT NULL, agent TEXT NOT NULL,
    season INTEGER, world_version TEXT NOT NULL, received_at TEXT NOT NULL,
    submission TEXT NOT NULL, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS submissions_family ON submissions (family, season);
CREATE TABLE IF NOT EXISTS agents (
    name TEXT PRIMARY KEY, look TEXT NOT NULL UNIQUE, shown TEXT NOT NULL,
    token_sha256 TEXT NOT NULL, issued_at TEXT NOT NULL);
"""
SQLITE_GUARDS = """
CREATE TRIGGER IF NOT EXISTS submissions_no_update BEFORE UPDATE ON submissions
BEGIN SELECT RAISE(ABORT, 'submissions are immutable'); END;
CREATE TRIGGER IF NOT EXISTS submissions_no_delete BEFORE DELETE ON submissions
BEGIN SELECT RAISE(ABORT, 'submissions are immutable'); END;
"""
PG_GUARDS = """
CREATE OR REPLACE FUNCTION submissions_immutable() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'submissions are immutable'; END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS submissions_immutable ON submissions;
CREATE TRIGGER submissions_immutable BEFORE UPDATE OR DELETE ON submissions
FOR EACH ROW EXECUTE FUNCTION submissions_immutable();
"""


def default_db() -> str:
    """The SQLite file of a service started without `--db`: in the user's data folder
    (`$XDG_DATA_HOME`, else `~/.local/share`), never the current directory."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    folder = os.path.join(base, "checkout-consent")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "scoring.db")


def arrived() -> str:
    """When a submission arrived (UTC). The service stamps it; no world ever sees it."""
    return datetime.now(UTC).isoformat(timespec="microseconds")  # noqa: TID251


class StorageError(ValueError):
    """The database cannot be used as it stands (unreachable, another schema version)."""


class Row(NamedTuple):
    """One stored submission."""

    id: str
    family: str
    task: str
    agent: str
    season: int | None
    world_version: str
    received_at: str
    submission: dict[str, Any]
    record: dict[str, Any]


def token_hash(token: str) -> str:
    """How an agent's token is stored: its sha256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _row(values: tuple[Any, ...]) -> Row:
    return Row._make((*values[:7], json.loads(values[7]), json.loads(values[8])))


class Storage:
    """Submissions in one database; a connection per operation, so workers can share it."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.postgres = target.startswith(("postgresql://", "postgres://"))
        try:
            with self._connect() as db:
                self._script(db, TABLES + (PG_GUARDS if self.postgres else SQLITE_GUARDS))
                self._check_version(db)
        except StorageError:
            raise
        except Exception as error:  # sqlite3.Error, psycopg.Error: one line, not a traceback
            raise StorageError(f"cannot open the database {target!r}: {error}") from None
        self._writer: GroupCommit | None = None
        self._writer_lock = threading.Lock()

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        if self.postgres:
            import psycopg

            with psycopg.connect(self.target, autocommit=False) as pg:
                yield pg
            return
        db = sqlite3.connect(self.target, timeout=60, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=60000")
            yield db
        finally:
            db.close()

    def _script(self, db: Any, script: str) -> None:
        if self.postgres:
            db.execute("SELECT pg_advisory_xact_lock(4242)")  # one schema writer at a time
            db.execute(script)
            db.commit()
        else:
            db.executescript(script)

    def _sql(self, query: str) -> str:
        return query.replace("?", "%s") if self.postgres else query

    def _check_version(self, db: Any) -> None:
        insert = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"
        db.execute(self._sql(insert), ("schema_version", str(SCHEMA_VERSION)))
        if self.postgres:
            db.commit()
        found = db.execute(
            self._sql("SELECT value FROM meta WHERE key = ?"), ("schema_version",)
        ).fetchone()[0]
        if found != str(SCHEMA_VERSION):
            raise StorageError(
                f"{self.target}: schema version {found}, this suite reads "
                f"version {SCHEMA_VERSION}; use a new database"
            )

    def add(
        self,
        family: str,
        task: str,
        agent: str,
        season: int | None,
        submission: dict[str, Any],
        record: dict[str, Any],
    ) -> Row:
        """Store one accepted submission under a fresh id (one transaction)."""
        row = Row(
            secrets.token_hex(12),
            family,
            task,
            agent,
            season,
            str(record.get("world_version", "")),
            arrived(),
            submission,
            record,
        )
        with self._writer_lock:
            if self._writer is None:
                self._writer = GroupCommit(self._insert)
        self._writer.write((*row[:7], json.dumps(submission), json.dumps(record)))
        return row

    def _insert(self, rows: list[tuple[Any, ...]]) -> None:
        """Insert rows in one transaction: all of them or none."""
        query = self._sql(f"INSERT INTO submissions ({COLUMNS}) VALUES ({', '.join('?' * 9)})")
        with self._connect() as db:
            if self.postgres:
                with db.cursor() as cursor:
                    cursor.executemany(query, rows)
                db.commit()
                return
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(query, rows)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _fetch(self, query: str, args: tuple[Any, ...], every: bool = False) -> Any:
        with self._connect() as db:
            found = db.execute(self._sql(query), args)
            return found.fetchall() if every else found.fetchone()

    def get(self, submission_id: str) -> Row | None:
        found = self._fetch(f"SELECT {COLUMNS} FROM submissions WHERE id = ?", (submission_id,))
        return None if found is None else _row(tuple(found))

    def rows(self, family: str, season: int | None = None) -> list[Row]:
        """A family's submissions (of one season when given), oldest first."""
        query = f"SELECT {COLUMNS} FROM submissions WHERE family = ?"
        params: tuple[Any, ...] = (family,)
        if season is not None:
            query, params = query + " AND season = ?", (family, season)
        found = self._fetch(query + " ORDER BY received_at, id", params, every=True)
        return [_row(tuple(r)) for r in found]

    def owners(self, agent: str) -> list[tuple[str, str]]:
        """(key, shown name) of every owned name `agent` meets: none, its owner, or two."""
        key, look = names.keys(agent)
        query = "SELECT name, shown FROM agents WHERE name = ? OR look = ? ORDER BY name"
        return [(str(k), str(v)) for k, v in self._fetch(query, (key, look), every=True)]

    def claim(self, agent: str, replace: bool = False) -> str | None:
        """Make `agent` owned by a fresh token and return it; None when a name it meets is
        owned already (one statement: of two racing first submissions, one wins).
        `replace`: give the owned name it meets a fresh token instead (its old one stops
        working); None when it meets no owned name, or two."""
        token = secrets.token_urlsafe(32)
        hashed, now, (key, look) = token_hash(token), arrived(), names.keys(agent)
        args: tuple[str | None, ...] = (hashed, now, key, look, names.shown(agent))
        statement = (
            "INSERT INTO agents (token_sha256, issued_at, name, look, shown) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
        if replace:
            found = self.owners(agent)
            owner = found[0][0] if len(found) == 1 else None
            statement = "UPDATE agents SET token_sha256 = ?, issued_at = ? WHERE name = ?"
            args = (hashed, now, owner)
        with self._connect() as db:
            done = db.execute(self._sql(statement), args)
            issued = done.rowcount == 1
            db.commit()
        return token if issued else None

    def owns(self, key: str, token: str | None) -> bool:
        """Whether `token` is the owner's token of the owned name `key` (constant-time compare)."""
        found = self._fetch("SELECT token_sha256 FROM agents WHERE name = ?", (key,))
        if found is None or token is None:
            return False
        return hmac.compare_digest(str(found[0]), token_hash(token))

    def count(self) -> int:
        return int(self._fetch("SELECT COUNT(*) FROM submissions", ())[0])
