"""What every verb group of the command line shares: messages and task arguments."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from checkout_consent.core.family import FamilySpec


class UsageError(ValueError):
    """Bad input on the command line: one line on stderr, exit 2, nothing run."""


def err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def task_args(args: argparse.Namespace, spec: FamilySpec) -> dict[str, Any]:
    """The public set's task arguments, overridden by `-T key=value` and `--seeds`."""
    out = dict(spec.public_args)
    for item in args.T or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"-T expects key=value, got {item!r}")
        if key not in spec.task_params:
            raise UsageError(f"{spec.name} has no task parameter {key!r}; parameters: "
                             f"{', '.join(sorted(spec.task_params))}")
        out[key] = value
    if getattr(args, "seeds", None):
        if "seeds" not in spec.task_params:
            raise UsageError(f"{spec.name} has no seeds; parameters: "
                             f"{', '.join(sorted(spec.task_params))}")
        out["seeds"] = args.seeds
    return out
