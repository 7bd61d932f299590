"""`checkout-consent pizza generate`: write a split of tasks from a seed; `pizza compare`:
the seed's mock printout beside ours."""

from __future__ import annotations

import argparse

from checkout_consent.pizza import dataset


def _generate(args: argparse.Namespace) -> int:
    path = dataset.write_split(args.seed, args.split)
    print(f"wrote {path}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from checkout_consent.pizza.authoring import seed_table  # it imports the family's WORLD

    print(seed_table.side_by_side(seed_table.mock_interval()))
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="pizza_command", required=True)
    gen = verbs.add_parser("generate", help="generate a split of tasks from a seed")
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--split", choices=["public", "hidden"], default="hidden")
    gen.set_defaults(fn=_generate)
    cmp = verbs.add_parser("compare", help="the seed's offline mock printout beside ours")
    cmp.set_defaults(fn=_compare)
