"""Scoring service speed: POST /v1/pizza/score with 50 concurrent clients against a real
`serve-api` process (SQLite, group commit), beside grading the same input in-process.
Prints figures; asserts nothing (machines are shared: the load average is printed).

Per round, alternating: (a) HTTP: REQUESTS posts of one saved trace, 50 in flight, from an
async httpx client in this process -> requests/s and p99 latency; (b) in-process: the same
body through `grade_saved` (parse, grade) -> gradings/s; (c) in-process through the
service (parse, grade, store). Medians and ranges over ROUNDS rounds; the API's overhead
is (b) / (a).

Run from the top of the checkout: python benchmarks/api.py
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx

from checkout_consent.core.offline import grade_saved, play
from checkout_consent.families import world_named
from checkout_consent.serve.api.service import Service
from checkout_consent.serve.api.storage import Storage

ROUNDS, REQUESTS, CONCURRENT, IN_PROCESS = 5, 600, 50, 600
FAMILY, TASK = "pizza", "allergen-1"


def body() -> bytes:
    world = world_named(FAMILY)
    played = play(world, world.dataset.task(TASK), world.controls[world.controls.reference])
    calls = [{"tool": c.tool, "args": c.args} for c in played.calls if c.origin == "agent"]
    return json.dumps({"task": TASK, "calls": calls, "agent": {"name": "bench"}}).encode()


async def http_round(url: str, payload: bytes) -> tuple[float, float]:
    """(requests/s, p99 seconds) of REQUESTS posts, CONCURRENT in flight."""
    latencies: list[float] = []
    gate = anyio.CapacityLimiter(CONCURRENT)
    limits = httpx.Limits(max_connections=CONCURRENT)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:

        async def one() -> None:
            async with gate:
                start = time.perf_counter()
                answer = await client.post(f"/v1/{FAMILY}/score", content=payload)
                latencies.append(time.perf_counter() - start)
            assert answer.status_code == 200, answer.text

        start = time.perf_counter()
        async with anyio.create_task_group() as group:
            for _ in range(REQUESTS):
                group.start_soon(one)
        elapsed = time.perf_counter() - start
    latencies.sort()
    return REQUESTS / elapsed, latencies[int(0.99 * len(latencies)) - 1]


def in_process(payload: bytes) -> float:
    world = world_named(FAMILY)
    start = time.perf_counter()
    for _ in range(IN_PROCESS):
        data = json.loads(payload)
        grade_saved(world, world.dataset.task(data["task"]), data["calls"])
    return IN_PROCESS / (time.perf_counter() - start)


def through_service(service: Service, payload: bytes) -> float:
    count = IN_PROCESS // 6  # serial: each waits for its own commit
    start = time.perf_counter()
    for _ in range(count):
        service.score(FAMILY, payload)
    return count / (time.perf_counter() - start)


def start_server(tmp: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "checkout_consent.cli",
            "serve-api",
            "--port",
            str(port),
            "--db",
            str(tmp / "bench.db"),
        ],
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("serve-api did not start")


def show(name: str, values: list[float], unit: str) -> None:
    print(
        f"  {name:<34} median {statistics.median(values):9.1f} {unit}"
        f"  (range {min(values):.1f} to {max(values):.1f})"
    )


def main() -> None:
    from tests.serve.conftest import free_port

    payload, port = body(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp), port)
        service = Service(Storage(str(Path(tmp) / "local.db")))
        rates, p99s, local, stored = [], [], [], []
        try:
            for _ in range(ROUNDS):
                rate, p99 = anyio.run(http_round, f"http://127.0.0.1:{port}", payload)
                rates.append(rate)
                p99s.append(p99 * 1000)
                local.append(in_process(payload))
                stored.append(through_service(service, payload))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(
        f"POST /v1/{FAMILY}/score ({len(payload)} bytes, {REQUESTS} requests x {ROUNDS} rounds,"
        f" {CONCURRENT} concurrent; load average {os.getloadavg()[0]:.1f}, "
        f"{os.cpu_count()} cores)"
    )
    show("HTTP requests/s", rates, "/s")
    show("HTTP p99 latency", p99s, "ms")
    show("in-process grade_saved", local, "/s")
    show("in-process service (grade+store)", stored, "/s")
    ratios = [g / r for g, r in zip(local, rates, strict=True)]
    show("overhead: in-process / HTTP", ratios, "x")


if __name__ == "__main__":
    main()
