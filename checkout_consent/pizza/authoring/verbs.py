"""`checkout-consent pizza generate`: write a split of tasks from a seed."""

from __future__ import annotations

import argparse

from checkout_consent.pizza import dataset


def _generate(args: argparse.Namespace) -> int:
    path = dataset.write_split(args.seed, args.split)
    print(f"wrote {path}")
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="pizza_command", required=True)
    gen = verbs.add_parser("generate", help="generate a split of tasks from a seed")
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--split", choices=["public", "hidden"], default="hidden")
    gen.set_defaults(fn=_generate)
