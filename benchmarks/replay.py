"""Cassette replay speed. Prints figures; asserts nothing (machines are shared).

1. Inspect's floor: one trivial sample (mockllm, one generate).
2. Replay of one storefront seed and of the committed 10-seed cassette (openai provider,
   oracle control), checked against the goldens; the marginal cost per seed is
   (10 seeds - 1 seed) / 9.
   Each both warm in-process (imports and provider SDKs already loaded, median of 3) and
   as a fresh process (`checkout-consent replay`: imports and log writing included).
3. The request matcher alone: the 10-seed cassette's requests through vcrpy with our
   matcher, and with vcrpy's built-in (method, uri, body) matchers.

Run from the top of the checkout: python benchmarks/replay.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from checkout_consent.cassettes import store
from checkout_consent.cassettes.runs import replay

TEN_SEEDS = store.CASSETTE_ROOT / "storefront" / "openai--storefront-oracle"


def timed(fn: Callable[[], object], repeats: int = 3) -> float:
    fn()  # warm: imports, provider SDKs, caches
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def trivial_eval(log_dir: str) -> None:
    """Inspect's floor: one sample, one mockllm generate (usage set: no tiktoken download)."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    output = ModelOutput.from_content("mockllm/model", "ok")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    model = get_model("mockllm/model", custom_outputs=lambda *_: output)  # type: ignore[arg-type]
    eval(Task(dataset=[Sample(input="hi")]), model=model, log_dir=log_dir, display="none")


def fresh_process(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True)
    return time.perf_counter() - start


def one_seed_copy(tmp: Path) -> Path:
    """A cassette directory holding only seed 0 of the 10-seed reference."""
    one = tmp / "one-seed"
    one.mkdir()
    for name in ("seed-0-1" + store.SUFFIX, "seed-0-1" + store.GOLDEN):
        shutil.copy(TEN_SEEDS / name, one / name)
    manifest = json.loads((TEN_SEEDS / store.MANIFEST).read_text())
    (one / store.MANIFEST).write_text(json.dumps({**manifest, "task_args": {"seeds": "0"}}))
    return one


def checked_replay(directory: Path, log_dir: str) -> None:
    outcome = replay(directory, log_dir=log_dir)
    assert not outcome.differences, outcome.differences


def matcher_figures() -> tuple[float, float]:
    from vcr.cassette import Cassette

    from checkout_consent.cassettes.match import match

    reqs, resps = store.UnitPersister.load_cassette(TEN_SEEDS, store.SafeYaml)

    def play(match_on: list) -> float:
        cass = Cassette("bench", match_on=match_on, record_mode="none")
        cass.data = list(zip(reqs, resps, strict=True))
        cass.rewound = True
        start = time.perf_counter()
        for r in reqs:
            assert cass.can_play_response_for(r)
            cass.play_response(r)
        return time.perf_counter() - start

    from vcr.matchers import body, method, uri

    return play([match]), play([method, uri, body])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        logs = str(Path(tmp) / "logs")
        one_dir = one_seed_copy(Path(tmp))
        base = timed(lambda: trivial_eval(logs))
        one = timed(lambda: checked_replay(one_dir, logs))
        ten = timed(lambda: checked_replay(TEN_SEEDS, logs))
        cli = ["-m", "checkout_consent.cli", "--log-dir", logs, "replay"]
        floor_code = f"import benchmarks.replay as b; b.trivial_eval({logs!r})"
        cold_base = fresh_process(["-c", floor_code])
        cold_one = fresh_process([*cli, str(one_dir)])
        cold_ten = fresh_process([*cli, str(TEN_SEEDS)])
    ours, builtin = matcher_figures()
    n = len(store.UnitPersister.load_cassette(TEN_SEEDS, store.SafeYaml)[0])
    print("                                    warm, in-process   fresh process")
    print(f"Inspect floor, one trivial sample   {base:8.2f} s        {cold_base:8.2f} s")
    print(f"replay, one storefront seed         {one:8.2f} s        {cold_one:8.2f} s")
    print(f"replay, 10 storefront seeds         {ten:8.2f} s        {cold_ten:8.2f} s")
    print(f"marginal cost per seed (10 - 1) / 9 {(ten - one) / 9:8.2f} s        "
          f"{(cold_ten - cold_one) / 9:8.2f} s")
    print(f"matching {n} requests: ours {ours * 1000:.0f} ms, vcrpy (method, uri, body) "
          f"{builtin * 1000:.0f} ms")


if __name__ == "__main__":
    main()
