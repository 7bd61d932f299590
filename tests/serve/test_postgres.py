"""The storage layer against PostgreSQL: a throwaway server from the OS packages on a free
loopback port (skipped, saying why, where none can be started)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage
from tests.serve.conftest import free_port, trace

BINS = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def as_postgres(args: list[str]) -> list[str]:
    """initdb and postgres refuse root: run them as the `postgres` user when we are root."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    if not BINS:
        pytest.skip("no PostgreSQL server in the OS packages (apt-get install postgresql)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as non-root")
    bin_dir, home = BINS[-1], tempfile.mkdtemp(prefix="cc-pg-")
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
    data, port = os.path.join(home, "data"), free_port()
    subprocess.run(
        as_postgres([f"{bin_dir}/initdb", "-D", data, "-A", "trust", "-U", "postgres"]),
        check=True,
        capture_output=True,
        timeout=120,
    )
    subprocess.run(
        as_postgres(
            [
                f"{bin_dir}/pg_ctl",
                "-D",
                data,
                "-w",
                "-t",
                "60",
                "-o",
                f"-h 127.0.0.1 -p {port} -k {home}",
                "-l",
                os.path.join(home, "log"),
                "start",
            ]
        ),
        check=True,
        capture_output=True,
        timeout=120,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-m", "fast", "stop"]),
            capture_output=True,
            timeout=120,
        )
        shutil.rmtree(home, ignore_errors=True)


def test_postgres__two_workers_store_every_submission_once_and_immutably(postgres_url: str) -> None:
    import psycopg

    workers = [Storage(postgres_url), Storage(postgres_url)]  # two processes' worth

    def write(i: int) -> str:
        return workers[i % 2].add("pizza", f"t{i}", "a", None, {"i": i}, {"i": i}).id

    with ThreadPoolExecutor(max_workers=20) as pool:
        ids = list(pool.map(write, range(300)))
    assert len(set(ids)) == 300 and workers[0].count() == 300
    with psycopg.connect(postgres_url) as db, pytest.raises(psycopg.Error, match="immutable"):
        db.execute("DELETE FROM submissions")


def test_postgres__the_service_scores_into_it(postgres_url: str) -> None:
    service = Service(Storage(postgres_url))
    body = trace("pizza", "allergen-1", "reference", "pg")
    row = service.score("pizza", json.dumps(body).encode())
    assert service.submission(row.id).record == row.record
    assert "pg" in {e["agent"] for e in service.leaderboard("pizza")}
