"""`checkout-consent`: run, sanity, list, show, score, the cassette verbs, and each family's
own verbs. One module per verb group; this one assembles them and answers errors."""

from __future__ import annotations

import argparse
import sys

from checkout_consent.cli import browse, run
from checkout_consent.cli import cassettes as cli_cassettes
from checkout_consent.cli import leaderboard as cli_leaderboard
from checkout_consent.cli.common import UsageError, err
from checkout_consent.families import FAMILIES
from checkout_consent.runtime.runner import RunFailed


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="checkout-consent", description=__doc__)
    ap.add_argument("--log-dir", default="logs", help="where .eval logs go (default: logs)")
    sub = ap.add_subparsers(dest="command", required=True)
    run.add_parsers(sub)
    browse.add_parsers(sub)
    cli_cassettes.add_parsers(sub)
    cli_leaderboard.add_parsers(sub)
    for spec in FAMILIES:
        if spec.add_commands is not None:
            spec.add_commands(sub.add_parser(spec.name, help=f"{spec.name} verbs"))
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.fn(args))
    except (RunFailed, UsageError, KeyError, FileNotFoundError, ValueError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        err(f"checkout-consent: {message}")
        return 2
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
