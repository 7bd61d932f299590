"""`python -m checkout_consent.cli.ladder parts RUNG WORLD`: what docs/record-ladder.sh needs
to record a rung over a world's public set in parts."""

from __future__ import annotations

import argparse
import sys

from checkout_consent.cassettes.tools import SELECTORS
from checkout_consent.families import world_named
from checkout_consent.runtime.ladder import LADDER
from checkout_consent.runtime.meta import task_params


def parts_line(rung_slug: str, world_name: str) -> str:
    rung = {r.slug: r for r in LADDER}.get(rung_slug)
    if rung is None:
        raise ValueError(f"no rung {rung_slug!r}: one of {', '.join(r.slug for r in LADDER)}")
    world = world_named(world_name)
    key = next((k for k in SELECTORS if k in task_params(world)), None)
    if key is None:
        raise ValueError(f"{world_name} has no task argument among {', '.join(SELECTORS)}")
    return f"{rung.model} {rung.template} {key} {','.join(world.dataset.tasks())}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m checkout_consent.cli.ladder",
        description="What docs/record-ladder.sh needs to record a ladder rung over a world.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    parts = sub.add_parser("parts", help="model, template, task argument and public task ids")
    parts.add_argument("rung", help=", ".join(r.slug for r in LADDER))
    parts.add_argument("world", help="a world's name")
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), said by argparse
        return int(stop.code or 0)
    try:
        print(parts_line(args.rung, args.world))
    except (ValueError, KeyError) as err:
        print(f"ladder: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
