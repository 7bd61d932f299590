"""Each family through `inspect eval` against Inspect's floor for the same shape of work.

The shape (samples, model turns and tool calls per sample) is counted by playing the
family's reference control offline over the same samples; the floor is benchmarks/floor.py
with that shape. Both run as the user runs them (`inspect eval`, fresh processes, realtime
log on), alternated, >= 5 pairs. Target: CPU ratio <= 1.15x (2x for storefront_v1, whose
30-day months trim the context; 1.25x with --payload).

    python benchmarks/families.py                  # every family
    python benchmarks/families.py storefront --pairs 7 -T seeds=0-29
    python benchmarks/families.py pizza --profile  # where a family's run goes (cProfile)
    python benchmarks/families.py storefront_v1 -T seeds=0-1   # the 30-day world
    python benchmarks/families.py shopkit --payload   # against the floor with the same payload

With --payload the floor's calls also carry the family's mean characters of arguments and
of results per call (`floor.py` arg_chars, result_chars): Inspect's own work per event
grows with what the messages hold, and this floor pays it too, so the ratio is what is ours.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from typing import Any

from pairs import inspect_cli, paired
from profiling import profile_eval

from checkout_consent.cli.run import task_scenarios
from checkout_consent.core.contract import World
from checkout_consent.core.offline import play
from checkout_consent.families import WORLDS as ALL_WORLDS

WORLDS = {w.name: w for w in ALL_WORLDS}

TARGET = 1.15
TARGET_SCENARIO = 2.0  # a world that names its scenario (storefront_v1's months: issue 14)


def shape(world: World, args: dict[str, Any]) -> tuple[int, int, int, int, int]:
    """(samples, turns per sample, agent tool calls per sample, characters of arguments
    (as JSON) per call, characters of results per call) of the reference control, rounded
    to the nearest integer."""
    scenarios = task_scenarios(world, args)
    policy = world.controls[world.controls.reference]
    runs = [play(world, s, policy) for s in scenarios]
    turns = sum(len(r.turns) for r in runs)
    agent = [c for r in runs for c in r.calls if c.origin == "agent"]
    n, k = len(scenarios), max(1, len(agent))
    arg_chars = sum(len(json.dumps(c.args)) for c in agent) / k
    result_chars = sum(len(c.observation) for c in agent) / k
    return n, round(turns / n), round(len(agent) / n), round(arg_chars), round(result_chars)


def family_argv(world: World, args: dict[str, Any], log_dir: str) -> list[str]:
    flags = [f for k, v in args.items() for f in ("-T", f"{k}={v}")]
    return inspect_cli(
        "eval",
        f"checkout_consent/{world.name}",
        "--model",
        f"control/{world.family}-{world.controls.reference}",
        *flags,
        "--display",
        "none",
        "--log-dir",
        log_dir,
    )


def floor_argv(
    samples: int, turns: int, calls: int, log_dir: str, arg_chars: int = 0, result_chars: int = 0
) -> list[str]:
    payload = (
        ["-T", f"arg_chars={arg_chars}", "-T", f"result_chars={result_chars}"]
        if arg_chars or result_chars
        else []
    )
    return inspect_cli(
        "eval",
        "benchmarks/floor.py",
        "-T",
        f"samples={samples}",
        "-T",
        f"turns={turns}",
        "-T",
        f"calls={calls}",
        *payload,
        "--model",
        "mockllm/model",
        "--display",
        "none",
        "--log-dir",
        log_dir,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "families",
        nargs="*",
        choices=sorted(WORLDS),
        metavar="FAMILY",
        help=f"families or scenario worlds: {', '.join(sorted(WORLDS))}",
    )
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument(
        "-T",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="task arguments instead of the public set (one family)",
    )
    parser.add_argument(
        "--payload",
        action="store_true",
        help="the floor's calls carry the family's characters per call",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="print where the run's CPU goes (cProfile; nothing timed)",
    )
    opts = parser.parse_args()
    for name in opts.families or sorted(WORLDS):
        world = WORLDS[name]
        args = dict(world.dataset.public_args) | dict(t.split("=", 1) for t in opts.T)
        samples, turns, calls, arg_chars, result_chars = shape(world, args)
        payload = (arg_chars, result_chars) if opts.payload else (0, 0)
        carrying = f", {arg_chars} + {result_chars} characters a call" if opts.payload else ""
        with tempfile.TemporaryDirectory() as logs:
            if opts.profile:
                profile_eval(
                    f"checkout_consent/{world.name}",
                    f"control/{world.family}-{world.controls.reference}",
                    args,
                    logs,
                )
                continue
            paired(
                f"{name} ({samples} samples x {turns} turns, {calls} tool calls"
                f"{carrying}) through inspect eval vs Inspect's floor for the same shape",
                family_argv(world, args, logs),
                floor_argv(samples, turns, calls, logs, *payload),
                pairs=opts.pairs,
                target=TARGET_SCENARIO if world.meta.scenario else TARGET,
            )


if __name__ == "__main__":
    main()
