"""What is checked before a cassette directory is replayed or a run is recorded, before any
Inspect work: a stranger's directory holds only what this suite writes, no credential, a
valid run.json for a known family and an HTTP provider; a recording has its key."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from checkout_consent.cassettes.load import CassetteRefused, refuse
from checkout_consent.cassettes.scan import scan_directory
from checkout_consent.cassettes.store import MANIFEST, Manifest, files
from checkout_consent.families import names, world_named
from checkout_consent.runtime.local_server import LOOPBACK
from checkout_consent.runtime.meta import task_params

# Providers whose traffic is plain HTTP through an SDK vcrpy patches. A run.json may come
# from a stranger: replay never starts any other provider (local servers, local weights).
REPLAYABLE_PROVIDERS = frozenset(
    {
        "openai",
        "anthropic",
        "openai-api",
        "openrouter",
        "together",
        "groq",
        "fireworks",
        "deepseek",
        "grok",
        "mistral",
        "google",
        "perplexity",
    }
)
# Where each provider's key lives when it is not <PROVIDER>_API_KEY (any one will do).
KEY_VARS: Mapping[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY", "AZUREAI_OPENAI_API_KEY", "AZURE_OPENAI_API_KEY"),
    "anthropic": ("ANTHROPIC_API_KEY", "AZUREAI_ANTHROPIC_API_KEY", "AZURE_ANTHROPIC_API_KEY"),
    "google": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "grok": ("XAI_API_KEY", "GROK_API_KEY"),
    "mistral": ("MISTRAL_API_KEY", "AZUREAI_MISTRAL_API_KEY", "AZURE_MISTRAL_API_KEY"),
}


def check_provider(model: str, what: str) -> None:
    if model.split("/")[0] not in REPLAYABLE_PROVIDERS:
        raise CassetteRefused(
            f"cannot {what}: {model} is not a provider cassettes record or replay (HTTP "
            f"providers only: {', '.join(sorted(REPLAYABLE_PROVIDERS))}); to record a control "
            "agent, serve it with `checkout-consent serve-controls` and use openai/<control>"
        )


def _service(model: str) -> str | None:
    """The service an `openai-api/<service>/<model>` names (its own key and base URL)."""
    parts = model.split("/")
    return parts[1] if parts[0] == "openai-api" and len(parts) > 2 else None


def _env(provider: str, suffix: str) -> str:
    """Inspect's environment variable for a provider: `LLAMA_API_KEY`, `LLAMA_BASE_URL`."""
    return provider.upper().replace("-", "_") + suffix


def key_vars(model: str) -> tuple[str, ...]:
    """The environment variables that can hold the model's provider key."""
    provider = _service(model) or model.split("/")[0]
    return KEY_VARS.get(provider, (_env(provider, "_API_KEY"),))


def is_loopback(base_url: str | None) -> bool:
    return bool(base_url) and (urlsplit(base_url).hostname or "") in LOOPBACK


# A provider's cloud route (`openai/azure/...`, `anthropic/bedrock/...`, `google/vertex/...`)
# may sign in without an API key (managed identity, AWS or Google credentials): Inspect checks.
CLOUD_SERVICES = frozenset({"azure", "bedrock", "vertex"})


def _takes_cloud_credentials(model: str) -> bool:
    parts = model.split("/")
    if len(parts) > 2 and parts[1] in CLOUD_SERVICES:
        return True
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() == "true"
    return parts[0] == "google" and vertex


def check_key(
    model: str,
    base_url: str | None,
    model_args: Mapping[str, Any],
    *,
    what: str = "record",
    lent: bool = True,
) -> None:
    """A live run of an HTTP provider needs its key (`openai-api/<service>/...` its base URL
    too): refused in one line before anything runs or is written. `lent`: a loopback
    endpoint is lent a placeholder key, as a recording is."""
    provider = model.split("/")[0]
    if provider not in REPLAYABLE_PROVIDERS or _takes_cloud_credentials(model):
        return  # a local or cloud-signed provider: Inspect says what it lacks
    service = _service(model)
    url_var = _env(service or "", "_BASE_URL")
    if service and not base_url and not os.environ.get(url_var):
        raise CassetteRefused(
            f"cannot {what} {model}: no base URL given and no {url_var} in the "
            "environment (openai-api/<service>/<model> names a server of your own)"
        )
    if (lent and is_loopback(base_url)) or model_args.get("api_key"):
        return
    wanted = key_vars(model)
    if not any(os.environ.get(v) for v in wanted):
        raise CassetteRefused(
            f"cannot {what} {model}: no {' or '.join(wanted)} in the environment (export the "
            "key; never pass it as -M api_key, model args are written to the log)"
        )


def check_directory(directory: Path) -> Manifest:
    """The directory's run.json, once the directory holds only what this suite writes, no
    credential, and a run.json of a known family and an HTTP provider."""
    files(directory)
    if found := scan_directory(directory):
        raise refuse(
            Path(found[0].path),
            f"holds what looks like a credential ({found[0].kind}: "
            f"{found[0].excerpt}; {len(found)} finding(s) in {directory}); remove it, "
            "rotate the key, and record again",
        )
    manifest = Manifest.read(directory)
    if manifest.family not in names():
        raise refuse(directory / MANIFEST, f"family must be one of {', '.join(names())}")
    unknown = sorted(set(manifest.task_args) - set(task_params(world_named(manifest.family))))
    if unknown:
        raise refuse(
            directory / MANIFEST,
            f"task_args: {manifest.family} has no task parameter {unknown[0][:40]!r}",
        )
    check_provider(manifest.model, f"replay ({directory / MANIFEST})")
    return manifest


def public_gap(manifest: Manifest) -> str:
    """How the run differs from its world's public set (`seeds 0-3 of 0-9`); "" if it is it."""
    world = world_named(manifest.family)
    public, args = dict(world.dataset.public_args), manifest.task_args
    gaps = [
        f"{k} {args[k]} of {public[k]}" if k in public and k in args
        else f"{k} {args[k]} (the public set leaves it out)" if k in args
        else f"no {k} (the public set's is {public[k]})"
        for k in sorted({*public, *args})
        if args.get(k) != public.get(k) or (k in args) != (k in public)
    ]  # fmt: skip
    if manifest.epochs < world.epochs:
        gaps.append(f"{manifest.epochs} epoch(s) of {world.epochs}")
    return ", ".join(gaps)


def scenario_note(manifest: Manifest) -> str | None:
    """A line when the run is not the family's whole public set; None when it is."""
    if not public_gap(manifest):
        return None
    world = world_named(manifest.family)
    public = dict(world.dataset.public_args)
    return (
        f"not the public scenario set: run.json plays task args {manifest.task_args} "
        f"with {manifest.epochs} epoch(s); {world.name}'s public set is {public} with "
        f"{world.epochs} epoch(s)"
    )
