"""Cassette replay against the same run live against the control endpoint, paired in fresh
processes (>= 5 alternating pairs). Target: replay <= 1.5x CPU of the live run.

  measured:  checkout-consent replay cassettes/storefront/openai--storefront-oracle
             (network blocked, vcrpy serving every response, records checked against the
             goldens)
  reference: the same run (task, samples, provider, base URL and model args of the
             cassette's manifest, the same runner) live against `serve-controls`, which
             this benchmark serves in a thread of its own process: the endpoint's CPU is
             in neither figure (replay has no endpoint), only the client's.

    python benchmarks/replay.py [CASSETTE_DIR] [--pairs N]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from pairs import paired, python

from checkout_consent.cassettes import store
from checkout_consent.endpoint.controls import serving
from checkout_consent.families import world_named
from checkout_consent.runtime.runner import run_models

TEN_SEEDS = store.CASSETTE_ROOT / "storefront" / "openai--storefront-oracle"


def live_argv(directory: Path, log_dir: str) -> list[str]:
    """This script's `--live`: the manifest's run through the same runner replay uses."""
    return python("benchmarks/replay.py", "--live", str(directory), log_dir)


def live(directory: Path, log_dir: str) -> None:
    """The cassette's run, live: same family, model, base URL, model and task args, the
    same runner (`runtime.runner.run_models`) as replay, with no cassette in the way."""
    manifest = json.loads((directory / store.MANIFEST).read_text())
    run_models(
        world_named(manifest["family"]),
        [manifest["model"]],
        task_args=manifest["task_args"],
        log_dir=log_dir,
        epochs=manifest["epochs"],
        model_base_url=manifest["base_url"],
        model_args=manifest["model_args"],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=TEN_SEEDS)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--live", nargs=2, metavar=("DIR", "LOG_DIR"), help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.live:
        live(Path(opts.live[0]), opts.live[1])
        return
    os.environ.setdefault("OPENAI_API_KEY", "unused-by-serve-controls")
    os.environ.setdefault("ANTHROPIC_API_KEY", "unused-by-serve-controls")
    with tempfile.TemporaryDirectory() as logs, serving():
        paired(
            f"cassette replay of {opts.directory.relative_to(store.CASSETTE_ROOT.parent)} "
            "vs the same run live against serve-controls",
            python("-m", "checkout_consent.cli", "--log-dir", logs, "replay", str(opts.directory)),
            live_argv(opts.directory, logs),
            pairs=opts.pairs,
            target=1.5,
        )


if __name__ == "__main__":
    main()
