"""Storefront speed figures, paired. Prints them; asserts nothing (machines are shared).

1. World throughput, simulated days per second (pure world, no Inspect, no tracer): the
   `half_value` control's traces (the old oracle's shape) and the oracle's, replayed with
   each world generated inside the timing, alternated with the same replays on worlds
   generated beforehand (the actions-only ceiling). Target: >= 20,000 days/s including
   generation.
2. Generation alone, microseconds per world: today's shopper draw alternated with the
   previous implementation's (one rejection-sampled draw per valuation), same seeds.
3. With --against DIR [CONTROL]: the same (1) in child processes, alternating this tree
   with a checkout of a previous implementation (e.g. `git archive c37abbc checkout_consent
   tasks | tar -x -C DIR`) replaying its CONTROL's traces (default `half_value`; at 80128dd
   today's `half_value` was called `oracle`).
4. With --inspect: a 10-seed Inspect run of the oracle control alternated with Inspect's
   own floor (10 trivial samples through mockllm), each in a fresh child process.

Every figure: >= 5 alternating pairs, median and range of CPU (process) time, the ratio.
Run: python benchmarks/storefront.py [--against DIR [CONTROL]] [--inspect]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

SEEDS, PAIRS = 400, 7

CONTROL_RUN = """
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from inspect_ai import eval
logs = eval("checkout_consent/storefront", model="control/storefront-oracle",
            task_args={"seeds": "0-9"}, log_dir=sys.argv[1], display="none")
assert logs[0].status == "success", logs[0].status
print(json.dumps({"cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - t0}))
"""

FLOOR_RUN = """
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
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
print(json.dumps({"cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - t0}))
"""


def cpu(fn: Callable[[], Any]) -> float:
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def paired(a: Callable[[], float], b: Callable[[], float]) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for _ in range(PAIRS):
        xs.append(a())
        ys.append(b())
    return xs, ys


def spread(values: list[float], scale: float = 1.0, fmt: str = ",.0f") -> str:
    v = sorted(x * scale for x in values)
    return f"median {statistics.median(v):{fmt}} (range {v[0]:{fmt}}-{v[-1]:{fmt}})"


def previous_shoppers(rng: Any, task_file: dict[str, Any], tops: list[int]) -> tuple:
    """The world-2 draw, kept here to pair against: one rejection-sampled draw per value."""
    lo, hi = int(task_file["demand"]["shoppers_min"]), int(task_file["demand"]["shoppers_max"])
    return tuple(
        tuple(tuple(rng.below(top) for _ in range(rng.randint(lo, hi))) for top in tops)
        for _ in range(int(task_file["days"]))
    )


THROUGHPUT_RUN = """
import sys, time
sys.path.insert(0, sys.argv[1])
from checkout_consent.core.offline import play
from checkout_consent.core.trace import replay
from checkout_consent.storefront import WORLD, dataset
from checkout_consent.storefront.generate import generate
load = getattr(dataset, "load_task_file", None) or dataset.load_spec  # a checkout before issue 43
task_file, control = load(), sys.argv[2]
runs = [(sc.seed, play(WORLD, sc, WORLD.controls[control]).calls)
        for sc in dataset.scenarios("0-399")]
c0 = time.process_time()
for seed, trace in runs:
    replay(WORLD.actions, generate(task_file, seed), trace)
print(400 * int(task_file["days"]) / (time.process_time() - c0))
"""


def against(previous: str, previous_control: str = "half_value") -> None:
    import pathlib

    here = str(pathlib.Path(__file__).resolve().parents[1])

    def run(root: str, control: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", THROUGHPUT_RUN, root, control],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        )
        return float(out.stdout.strip().splitlines()[-1])

    new, old = paired(lambda: run(here, "half_value"), lambda: run(previous, previous_control))
    ratio = [a / b for a, b in zip(new, old, strict=True)]
    print(
        f"world throughput incl. generation, half_value traces, 400 seeds, {PAIRS} pairs of "
        f"child processes (CPU): this tree {spread(new)} days/s, previous "
        f"{spread(old)} days/s, ratio this/previous {spread(ratio, fmt='.2f')}"
    )


def world_throughput() -> None:
    from checkout_consent.core.offline import play
    from checkout_consent.core.rng import stream
    from checkout_consent.core.trace import replay
    from checkout_consent.storefront import WORLD, dataset
    from checkout_consent.storefront.generate import _products, _shoppers, generate

    task_file = dataset.load_task_file()
    days = SEEDS * int(task_file["days"])
    for control in ("half_value", "oracle"):
        runs = [
            (sc.seed, play(WORLD, sc, WORLD.controls[control]).calls)
            for sc in dataset.scenarios(f"0-{SEEDS - 1}")
        ]
        worlds = [(generate(task_file, seed), trace) for seed, trace in runs]

        def each(pairs: list[Any], make: Callable[[Any], Any]) -> float:
            """Replay every trace and drop the result, as the scorer does (keeping all 400
            replays in a list made this figure measure the garbage collector walking them:
            about 10,000 days/s instead of 16,500 for the same code)."""

            def run() -> None:
                for world, trace in pairs:
                    replay(WORLD.actions, make(world), trace)

            return cpu(run)

        with_gen, ceiling = paired(
            lambda r=runs: each(r, lambda s: generate(task_file, s)),
            lambda ws=worlds: each(ws, lambda w: w),
        )
        ratio = [a / b for a, b in zip(with_gen, ceiling, strict=True)]
        print(f"{control} traces, {SEEDS} seeds x {task_file['days']} days, {PAIRS} pairs (CPU):")
        print(
            f"  including generation: {spread([days / t for t in with_gen])} days/s "
            f"(target >= 20,000)"
        )
        print(f"  actions-only ceiling: {spread([days / t for t in ceiling])} days/s")
        print(f"  ratio including/ceiling CPU time: {spread(ratio, fmt='.2f')}")
    products = _products(task_file)
    tops = [p.market_value_cents + 1 for p in products]
    new, old = paired(
        lambda: cpu(
            lambda: [
                _shoppers(stream(s, "storefront", "x", "shoppers"), task_file, products)
                for s in range(SEEDS)
            ]
        ),
        lambda: cpu(
            lambda: [
                previous_shoppers(stream(s, "storefront", "x", "shoppers"), task_file, tops)
                for s in range(SEEDS)
            ]
        ),
    )
    print(
        f"shopper draws per world, {PAIRS} pairs (CPU): today {spread(new, 1e6 / SEEDS)} us, "
        f"previous {spread(old, 1e6 / SEEDS)} us, ratio "
        f"{spread([a / b for a, b in zip(new, old, strict=True)], fmt='.2f')}"
    )


def child(script: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as logs:
        out = subprocess.run(
            [sys.executable, "-c", script, logs], capture_output=True, text=True, check=True
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def inspect_runs() -> None:
    control, floor = paired(lambda: child(CONTROL_RUN)["cpu_s"], lambda: child(FLOOR_RUN)["cpu_s"])
    print(
        f"Inspect, {PAIRS} pairs (CPU s): storefront oracle 10 seeds {spread(control, fmt='.2f')}"
        f", floor 10 trivial samples {spread(floor, fmt='.2f')}, ratio "
        f"{spread([a / b for a, b in zip(control, floor, strict=True)], fmt='.2f')}"
    )


if __name__ == "__main__":
    world_throughput()
    if "--against" in sys.argv:
        at = sys.argv.index("--against")
        against(*[a for a in sys.argv[at + 1 : at + 3] if not a.startswith("--")])
    if "--inspect" in sys.argv:
        inspect_runs()
