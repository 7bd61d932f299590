"""A world's `eval.yaml`, read once from its package (core's `Meta` is pure: no file)."""

from __future__ import annotations

import functools
from importlib import resources

import yaml

from checkout_consent.core.family import Meta


@functools.cache
def meta(package: str) -> Meta:
    """The metadata of the world in `package` (ValueError naming the bad field)."""
    text = resources.files(package).joinpath("eval.yaml").read_text("utf-8")
    return Meta.model_validate(yaml.safe_load(text))
