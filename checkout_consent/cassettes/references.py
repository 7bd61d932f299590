"""Record the reference cassettes: each world's `recorded` runs (its reference control and
one failing control, by provider), played by `serve-controls` on the fixed loopback port and
reached through Inspect's own openai (and anthropic) providers. A variant's runs (its task
args name the variant) go under `cassettes/<family>/<variant>/`. Refreshing is one command:

    checkout-consent record-references [--family NAME]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from checkout_consent.cassettes import store
from checkout_consent.cassettes.runs import record
from checkout_consent.core.family import FamilySpec
from checkout_consent.families import WORLDS, world
from checkout_consent.serve.controls import FIXED_PORT, HOST, serving


class Reference(NamedTuple):
    family: str
    provider: str  # "openai" or "anthropic"
    control: str  # control name without the family prefix
    world: str  # the world's label: the family, or `family/variant`

    @property
    def spec(self) -> FamilySpec:
        return world(self.world)

    def directory(self, root: Path = store.CASSETTE_ROOT) -> Path:
        return store.run_dir(self.world, f"{self.provider}/{self.family}-{self.control}", root)


def references() -> tuple[Reference, ...]:
    """Every reference run, from the roster: each world's `recorded` (provider, control)."""
    return tuple(
        Reference(spec.name, provider, control, spec.label)
        for spec in WORLDS
        for provider, control in spec.recorded
    )


# provider -> (its wire format's path on a serve-controls, model args of its runs)
WIRES: dict[str, tuple[str, dict[str, Any]]] = {
    "openai": ("/v1", {"responses_api": False}),
    "anthropic": ("", {}),
}


def endpoint(provider: str, url: str = f"http://{HOST}:{FIXED_PORT}") -> tuple[str, dict[str, Any]]:
    """The base URL of `provider`'s wire format on the serve-controls at `url` (default:
    the fixed port references are recorded on) and the model args its runs take."""
    path, model_args = WIRES[provider]
    return url + path, dict(model_args)


# The endpoint is local and deterministic: a failed request is a bug, not a blip to wait out
# (Inspect's default retries a connection error for a very long time).
LOCAL_EVAL_ARGS: dict[str, object] = {"max_retries": 0, "timeout": 120}


def manifest(ref: Reference) -> store.Manifest:
    """How a reference run is made: the world's public scenarios, one epoch."""
    base_url, model_args = endpoint(ref.provider)
    return store.Manifest(
        family=ref.family,
        model=f"{ref.provider}/{ref.family}-{ref.control}",
        base_url=base_url,
        model_args=model_args,
        task_args=dict(ref.spec.public_args),
        epochs=1,
    )


def record_references(
    families: list[str] | None = None,
    *,
    root: Path = store.CASSETTE_ROOT,
    log_dir: str | Path = "logs",
    announce: Callable[[str], None] = print,
) -> list[Path]:
    """Record every reference run (of the named families); the directories written."""
    chosen = [r for r in references() if not families or r.family in families]
    written: list[Path] = []
    with serving(port=FIXED_PORT):
        for ref in chosen:
            announce(f"recording {ref.world} {ref.provider}/{ref.family}-{ref.control} ...")
            outcome = record(manifest(ref), root=root, log_dir=log_dir, eval_args=LOCAL_EVAL_ARGS)
            written.append(outcome.directory)
    return written
