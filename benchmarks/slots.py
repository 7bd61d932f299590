"""Throughput of a real model against llama-server's parallel slots: the same pizza tasks
played at 1, 2 and 4 slots (`-np`, with Inspect's `max_connections` equal), side by side
in one run: wall per sample, requests per minute, generated and prompt tokens per second
over the run (llama.cpp's own `timings`, read from the recorded responses).

    python benchmarks/slots.py --weights /opt/llm/smollm2-135m-instruct-q4_1.gguf \
        --sha256 b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53 \
        --template smollm2-fenced-json --ctx-per-slot 8192 --tasks wrong-topping-1,cold-pizza-1

It needs the built server (docs/local-models.md) and minutes of CPU per setting; it
records into a temporary folder and commits nothing. One thread serves every setting, so
the figures compare slots, not cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checkout_consent.cassettes import store  # noqa: E402
from checkout_consent.cli import local_model  # noqa: E402


def _timings(directory: Path) -> tuple[int, int, float, float]:
    """(requests, generated tokens, seconds generating, seconds on prompts) of a run."""
    n = gen = 0
    gen_ms = prompt_ms = 0.0
    for unit in store.read_units(directory).values():
        for exchange in unit.requests:
            timings = json.loads(exchange.response.body).get("timings") or {}
            n += 1
            gen += int(timings.get("predicted_n", 0))
            gen_ms += float(timings.get("predicted_ms", 0.0))
            prompt_ms += float(timings.get("prompt_ms", 0.0))
    return n, gen, gen_ms / 1000, prompt_ms / 1000


def measure(args: argparse.Namespace, slots: int, root: Path) -> str:
    serve = argparse.Namespace(
        server=args.server, weights=args.weights, port=args.port, ctx=args.ctx_per_slot * slots,
        threads=1, parallel=slots, temp=0.0, seed=0, n_predict=1024, alias=None,
        template=args.template, server_log=str(root / f"server-{slots}.log"), ready_timeout=600.0,
    )  # fmt: skip
    process = local_model.start(serve)
    model = f"openai-api/llama/slots-{slots}"
    try:
        began = time.monotonic()
        subprocess.run(
            ["checkout-consent", "run", "pizza", "--model", model, "--model-base-url",
             f"http://127.0.0.1:{args.port}/v1", "-T", f"tasks={args.tasks}", "--cassette",
             "record", "--cassette-root", str(root / str(slots)), "--max-connections",
             str(slots), "--log-dir", str(root / "logs")],
            check=True, capture_output=True, env={**os.environ, "LLAMA_API_KEY": "none"},
        )  # fmt: skip
        wall = time.monotonic() - began
    finally:
        local_model.stop(process)
    n, gen, gen_s, _ = _timings(store.run_dir("pizza", model, root / str(slots)))
    samples = len(args.tasks.split(","))
    return (
        f"| {slots} | {samples} | {wall / samples:.0f} | {n / wall * 60:.1f} | "
        f"{gen / wall:.1f} | {gen / gen_s if gen_s else 0:.1f} |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default="/opt/llm/build/bin/llama-server")
    ap.add_argument("--weights", required=True)
    ap.add_argument("--sha256", required=True)
    ap.add_argument("--template", default="native")
    ap.add_argument("--ctx-per-slot", type=int, default=8192)
    ap.add_argument("--tasks", default="wrong-topping-1,cold-pizza-1,missing-item-1,allergen-1")
    ap.add_argument("--port", type=int, default=8095)
    ap.add_argument("--slots", default="1,2,4")
    args = ap.parse_args()
    local_model.check(Path(args.server), Path(args.weights), args.sha256)
    print("| slots | samples | wall s/sample | requests/min | generated tok/s (run) | "
          "generated tok/s (while generating, per request) |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="cc-slots-") as tmp:
        for slots in (int(s) for s in args.slots.split(",")):
            print(measure(args, slots, Path(tmp)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
