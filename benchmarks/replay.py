"""Cassette replay against the same run live against the control endpoint, paired in fresh
processes (>= 5 alternating pairs). Target: replay <= 1.5x CPU of the live run.

  measured:  checkout-consent replay cassettes/storefront/openai--storefront-oracle
             (network blocked, vcrpy serving every response, records checked against the
             goldens)
  reference: inspect eval of the same task, samples and provider (openai, the manifest's
             base URL and model args) live against `serve-controls`, which this benchmark
             serves in a thread of its own process: the endpoint's CPU is not in either
             figure (replay has no endpoint), only the client's.

    python benchmarks/replay.py [CASSETTE_DIR] [--pairs N]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from benchmarks.families import family_argv
from benchmarks.pairs import paired, python
from checkout_consent.cassettes import store
from checkout_consent.families import family
from checkout_consent.serve.controls import serving

TEN_SEEDS = store.CASSETTE_ROOT / "storefront" / "openai--storefront-oracle"


def live_argv(directory: Path, log_dir: str) -> list[str]:
    manifest = json.loads((directory / store.MANIFEST).read_text())
    spec = family(manifest["family"])
    argv = family_argv(spec, manifest["task_args"], log_dir)
    model = argv.index("--model") + 1
    argv[model] = manifest["model"]
    flags = [f for k, v in manifest["model_args"].items() for f in ("-M", f"{k}={json.dumps(v)}")]
    return [*argv, "--model-base-url", manifest["base_url"], *flags, "--max-retries", "0"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=TEN_SEEDS)
    parser.add_argument("--pairs", type=int, default=5)
    opts = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "unused-by-serve-controls")
    os.environ.setdefault("ANTHROPIC_API_KEY", "unused-by-serve-controls")
    with tempfile.TemporaryDirectory() as logs, serving():
        paired(f"cassette replay of {opts.directory.relative_to(store.CASSETTE_ROOT.parent)} "
               "vs the same run live against serve-controls",
               python("-m", "checkout_consent.cli", "--log-dir", logs, "replay",
                      str(opts.directory)),
               live_argv(opts.directory, logs), pairs=opts.pairs, target=1.5)


if __name__ == "__main__":
    main()
