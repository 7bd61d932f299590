"""The command line against Inspect, paired in fresh processes (>= 5 alternating pairs):

1. `checkout-consent run FAMILY --model control/<reference>` (sanity, then the model's run)
   vs `inspect eval` of the same samples with the same model. Target: <= 1.3x CPU.
2. the bare `checkout-consent run` (every family's sanity controls) vs the sum of the
   floors (benchmarks/floor.py, one process) of the Inspect runs those controls would
   make: every family, every sanity control, its shape counted offline. Target: <= 2x CPU.

    python benchmarks/cli.py                     # both, every family
    python benchmarks/cli.py run storefront      # only 1., one family
    python benchmarks/cli.py bare
"""

from __future__ import annotations

import argparse
import tempfile

from families import family_argv
from pairs import paired, python

from checkout_consent.cli.run import task_scenarios
from checkout_consent.core.offline import play
from checkout_consent.families import names, world_named


def run_vs_eval(name: str, pairs: int) -> None:
    world = world_named(name)
    model = f"control/{world.family}-{world.controls.reference}"
    with tempfile.TemporaryDirectory() as logs:
        ours = python(
            "-m",
            "checkout_consent.cli",
            "--log-dir",
            logs,
            "run",
            name,
            "--model",
            model,
            "--display",
            "none",
        )
        paired(
            f"run {name} --model {model} vs inspect eval of the same samples",
            ours,
            family_argv(world, dict(world.dataset.public_args), logs),
            pairs=pairs,
            target=1.3,
        )


def control_shapes() -> list[str]:
    """`SAMPLESxTURNSxCALLS` of every world's every sanity control over its public set
    (storefront_v1 included)."""
    shapes = []
    for world in (w for name in names() for w in (world_named(name),)):
        scenarios = task_scenarios(world)
        for control in world.controls.sanity:
            runs = [play(world, s, world.controls[control]) for s in scenarios]
            turns = sum(len(r.turns) for r in runs)
            calls = sum(sum(c.origin == "agent" for c in r.calls) for r in runs)
            n = len(scenarios)
            shapes.append(f"{n}x{max(1, round(turns / n))}x{round(calls / n)}")
    return shapes


def bare_vs_floors(pairs: int) -> None:
    shapes = control_shapes()
    with tempfile.TemporaryDirectory() as logs:
        paired(
            "bare `checkout-consent run` vs the sum of the floors of its controls' shapes",
            python("-m", "checkout_consent.cli", "--log-dir", logs, "run"),
            python("benchmarks/floor.py", *shapes),
            pairs=pairs,
            target=2.0,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=("run", "bare"), default=None)
    parser.add_argument("families", nargs="*", metavar="FAMILY")
    parser.add_argument("--pairs", type=int, default=5)
    opts = parser.parse_args()
    if opts.what in (None, "run"):
        for name in opts.families or names():
            run_vs_eval(name, opts.pairs)
    if opts.what in (None, "bare"):
        bare_vs_floors(opts.pairs)


if __name__ == "__main__":
    main()
