"""`checkout-consent`: run, suite, sanity, list, show, score, the cassette verbs, and each family's
own verbs. One module per verb group; this one assembles them and answers errors."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import warnings

from checkout_consent.cli import browse, local_model, run, service, suite
from checkout_consent.cli import cassettes as cli_cassettes
from checkout_consent.cli import consent as cli_consent
from checkout_consent.cli import leaderboard as cli_leaderboard
from checkout_consent.cli.common import Parser, UsageError, add_log_dir, err, one_line
from checkout_consent.families import WORLDS
from checkout_consent.runtime.runner import RunFailed

# the verb groups, in the order `--help` lists their verbs
GROUPS = (run, suite, browse, cli_consent, cli_cassettes, service, cli_leaderboard, local_model)


def parser() -> argparse.ArgumentParser:
    ap = Parser(prog="checkout-consent", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.add_parsers(sub)
    for world in WORLDS:
        if world.views.add_commands is not None:
            world.views.add_commands(sub.add_parser(world.name, help=f"{world.name} verbs"))
    add_log_dir(ap, default="logs")
    return ap


STOP_GRACE_S = 3.0  # after Ctrl-C, Inspect gets this long to close its logs
_SAID = threading.Lock()  # taken by the first "interrupted" line: there is only one


def _say_interrupted() -> None:
    if _SAID.acquire(blocking=False):
        err("checkout-consent: interrupted")


def _quiet_unwinding() -> None:
    """The interrupted loop's coroutine warnings would bury the one line that matters."""
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited")


def _on_interrupt(signum: int, frame: object) -> None:
    """Ctrl-C: let the run stop gracefully, but exit for sure within STOP_GRACE_S."""
    _quiet_unwinding()

    def hard_stop() -> None:
        _say_interrupted()
        os._exit(130)

    timer = threading.Timer(STOP_GRACE_S, hard_stop)
    timer.daemon = True
    timer.start()
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Run one command; every error is one line on stderr and a non-zero exit."""
    args = parser().parse_args(argv)
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _on_interrupt) if on_main_thread else None
    try:
        return _run(args)
    finally:  # a caller in the same process (a test, a notebook) gets its own handler back
        if on_main_thread:
            signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.fn(args))
    except (RunFailed, UsageError, KeyError, OSError, ValueError) as error:
        if isinstance(error, BrokenPipeError):  # piped into `head` and the like: stop quietly
            sys.stderr.close()
            return 0
        err(f"checkout-consent: {one_line(error)}")
        return 2
    except KeyboardInterrupt:
        _quiet_unwinding()
        _say_interrupted()
        return 130
    except RecursionError:
        err("checkout-consent: input nested too deeply")
        return 2
    except Exception as error:  # a bug: still one line (CC_TRACEBACK=1 shows the traceback)
        if os.environ.get("CC_TRACEBACK"):
            raise
        err(
            f"checkout-consent: internal error: {type(error).__name__}: {one_line(error)} "
            "(set CC_TRACEBACK=1 for the traceback, and please report it)"
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
