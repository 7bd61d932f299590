"""What a local model server applied to a run, asked of the server itself."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from checkout_consent.runtime.chat_template import describe
from checkout_consent.runtime.gguf import NotGguf, chat_template

FLAGS_ENV = "CHECKOUT_CONSENT_SERVER_FLAGS"  # set by `local-model serve` for its command
MAX_PROPS = 1 << 20  # bytes of a /props answer read


def _props(base_url: str) -> dict[str, Any] | None:
    root = base_url.rstrip("/").removesuffix("/v1")
    try:
        with urllib.request.urlopen(root + "/props", timeout=10) as answer:
            data = json.loads(answer.read(MAX_PROPS))
    except (OSError, ValueError):
        return None  # not llama-server (or it does not say): nothing is recorded
    return data if isinstance(data, dict) else None


def _native(model_path: Any) -> str | None:
    """The weights' own template, read from the GGUF the server says it loaded."""
    if not isinstance(model_path, str) or not Path(model_path).is_file():
        return None
    try:
        return chat_template(Path(model_path))
    except (OSError, NotGguf):
        return None


def setting(base_url: str | None) -> dict[str, Any] | None:
    """The server's setting for run.json, or None when the endpoint does not say."""
    props = _props(base_url) if base_url else None
    if props is None or not isinstance(props.get("chat_template"), str):
        return None
    defaults = props.get("default_generation_settings") or {}
    params = defaults.get("params") or {}
    out: dict[str, Any] = {
        "chat_template": describe(props["chat_template"], _native(props.get("model_path"))),
        "temperature": params.get("temperature"),
        "seed": params.get("seed"),
        "n_ctx_per_slot": defaults.get("n_ctx"),
        "slots": props.get("total_slots"),
        "weights": Path(str(props.get("model_path") or "")).name or None,
        "build": props.get("build_info"),
    }
    if flags := os.environ.get(FLAGS_ENV):
        out["flags"] = flags[:2000]
    return {k: v for k, v in out.items() if v is not None}


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def of_run(models: list[str], eval_args: dict[str, Any]) -> dict[str, Any] | None:
    """The setting of the loopback OpenAI-compatible server a run's model talks to, for the log."""
    if len(models) != 1 or not models[0].startswith("openai-api/"):
        return None
    service = models[0].split("/")[1].upper().replace("-", "_")
    url = eval_args.get("model_base_url") or os.environ.get(f"{service}_BASE_URL")
    if not url or (urlsplit(url).hostname or "") not in LOOPBACK:
        return None
    return setting(url)
