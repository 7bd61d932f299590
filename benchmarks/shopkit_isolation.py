"""What the shopkit sandbox's namespaces cost per run: one `exec` of `true` through the
default sandbox (`checkout-consent`), and one probe-free launch on the seed (the grading
floor), each without and with isolation, in alternating pairs.

"Without" is the same launch with the namespace step taken out of the command line (the
supervisor started directly, as before isolation), for this measurement only: the product
has no such mode. Prints both side by side with their difference; asserts nothing.

Run: python benchmarks/shopkit_isolation.py [--pairs 10]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from typing import Any

import anyio
from pairs import in_process_pairs

from checkout_consent.shopkit.grading import seed_dir
from checkout_consent.shopkit.sandbox import isolation
from checkout_consent.shopkit.sandbox.environment import ConfinedSandbox
from checkout_consent.shopkit.sandbox.execution import execute

ISOLATED = isolation.command


def bare(argv: list[str], plan: dict[str, Any]) -> list[str]:
    return argv


def switched(work: Callable[[], object], isolated: bool) -> Callable[[], object]:
    def run() -> object:
        isolation.command = ISOLATED if isolated else bare  # type: ignore[assignment]
        try:
            return work()
        finally:
            isolation.command = ISOLATED  # type: ignore[assignment]

    return run


def show(name: str, got: list[tuple[float, float]]) -> None:
    a, b = [x * 1000 for x, _ in got], [y * 1000 for _, y in got]
    d = [y - x for x, y in zip(a, b, strict=True)]
    print(
        f"  {name:<22} before {statistics.median(a):6.1f} ms [{min(a):.1f}-{max(a):.1f}]"
        f"  after {statistics.median(b):6.1f} ms [{min(b):.1f}-{max(b):.1f}]"
        f"  +{statistics.median(d):.1f} ms per run"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=10)
    n = max(5, ap.parse_args(argv).pairs)
    isolation.require()
    env = ConfinedSandbox()
    try:
        exec_true = lambda: anyio.run(lambda: env.exec(["true"]))  # noqa: E731
        floor = lambda: execute(seed_dir(), ())  # noqa: E731
        print(
            f"shopkit sandbox: per-run cost of isolation, {n} alternating pairs, median [min-max]"
        )
        for name, work in (("exec true (sandbox)", exec_true), ("grading floor (seed)", floor)):
            show(name, in_process_pairs(switched(work, False), switched(work, True), n))
    finally:
        env.close()


if __name__ == "__main__":
    main()
