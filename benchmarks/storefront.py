"""Storefront speed and memory figures. Prints them; asserts nothing (machines are shared).

1. World throughput: simulated days per second for the oracle control's traces, pure
   world, no Inspect (generation of each world included, and excluded).
2. A 10-seed Inspect run of the oracle control next to Inspect's own floor (10 trivial
   samples through mockllm), each in a fresh child process: wall time and peak RSS.

Run: python benchmarks/storefront.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time

SEEDS = 200

CONTROL_RUN = """
import json, resource, sys, time
t0 = time.perf_counter()
from inspect_ai import eval
logs = eval("checkout_consent/storefront", model="control/storefront-oracle",
            task_args={"seeds": "0-9"}, log_dir=sys.argv[1], display="none")
assert logs[0].status == "success", logs[0].status
print(json.dumps({"wall_s": time.perf_counter() - t0,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

FLOOR_RUN = """
import json, resource, sys, time
t0 = time.perf_counter()
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate
out = ModelOutput.from_content("mockllm/model", "ok")
out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
model = get_model("mockllm/model", custom_outputs=lambda *a, **k: out)
task = Task(dataset=[Sample(input=f"trivial {i}") for i in range(10)], solver=generate())
logs = eval(task, model=model, log_dir=sys.argv[1], display="none")
assert logs[0].status == "success", logs[0].status
print(json.dumps({"wall_s": time.perf_counter() - t0,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def world_throughput() -> None:
    from checkout_consent.core.offline import play
    from checkout_consent.core.trace import replay
    from checkout_consent.storefront import SPEC, dataset
    from checkout_consent.storefront.generate import generate

    spec = dataset.load_spec()
    oracle = SPEC.controls["oracle"]
    runs = [(sc, play(SPEC, sc, oracle).calls) for sc in dataset.scenarios(f"0-{SEEDS - 1}")]
    days = SEEDS * int(spec["days"])
    t0 = time.perf_counter()
    for sc, trace in runs:
        replay(SPEC.actions, generate(spec, sc.seed), trace)
    with_gen = time.perf_counter() - t0
    worlds = [(generate(spec, sc.seed), trace) for sc, trace in runs]
    t0 = time.perf_counter()
    for world, trace in worlds:
        replay(SPEC.actions, world, trace)
    without_gen = time.perf_counter() - t0
    print(f"world throughput (oracle, {SEEDS} seeds, no Inspect): "
          f"{days / with_gen:,.0f} simulated days/s including world generation, "
          f"{days / without_gen:,.0f} days/s excluding it (target >= 20,000)")


def child(script: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as logs:
        out = subprocess.run([sys.executable, "-c", script, logs], capture_output=True,
                             text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def inspect_runs() -> None:
    floor, control = child(FLOOR_RUN), child(CONTROL_RUN)
    print(f"Inspect floor, 10 trivial samples:      {floor['wall_s']:6.2f} s wall, "
          f"{floor['peak_rss_mb']:6.0f} MB peak RSS")
    print(f"storefront oracle, 10 seeds x 5 days:   {control['wall_s']:6.2f} s wall, "
          f"{control['peak_rss_mb']:6.0f} MB peak RSS")
    print(f"ratio control / floor: {control['wall_s'] / floor['wall_s']:.2f}x wall, "
          f"{control['peak_rss_mb'] / floor['peak_rss_mb']:.2f}x memory (target <= 2x)")


if __name__ == "__main__":
    world_throughput()
    inspect_runs()
