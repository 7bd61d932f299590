"""The leaderboard verbs: `submit validate`, `reproduce` and `leaderboard build`."""

from __future__ import annotations

import argparse
from pathlib import Path

from checkout_consent.cli.common import UsageError, clone_hint, err, one_line

DEFAULT_ROOT = "leaderboard"  # the board folder of a clone


def validate(args: argparse.Namespace) -> int:
    from checkout_consent.leaderboard.validate import validate as check

    verdicts = [check(Path(d), cassettes=not args.no_cassettes) for d in args.dirs]
    if args.json:
        import json

        print(json.dumps([v.to_json() for v in verdicts], indent=2, sort_keys=True))
    else:
        print("\n".join(v.render() for v in verdicts))
    return 0 if all(v.ok for v in verdicts) else 1


def reproduce(args: argparse.Namespace) -> int:
    from checkout_consent.leaderboard import reproduce as again

    root = Path(args.submission)
    if args.record and args.cassette == "replay":
        raise UsageError(
            "--record marks a re-run; --cassette replay re-grades recorded traffic, which "
            "is no re-run (drop --record, or reproduce without --cassette replay)"
        )
    keep = Path(args.log_dir_keep) if args.log_dir_keep else None
    try:
        done = again.reproduce(root, keep, cassette=args.cassette, announce=err)
    except again.ReproduceError as error:
        err(f"checkout-consent: {one_line(error, 1000)}")
        return 1
    print(done.line())
    if done.ok and args.record:
        print(again.record(root.resolve().parents[2], root, done))
    return 0 if done.ok else 1


def build(args: argparse.Namespace) -> int:
    """Build (or `--check`) the board; a refused folder is left off, named, and exits non-zero."""
    from checkout_consent.leaderboard import site
    from checkout_consent.leaderboard.board import refused

    root = Path(args.root)
    if not (root / "submissions").is_dir():
        hint = clone_hint("submissions") if args.root == DEFAULT_ROOT else ""
        raise UsageError(f"{root}: no submissions/ folder (give the leaderboard folder){hint}")
    if args.check and args.rank_humans:
        raise UsageError(
            "--rank-humans is a reader's own build: the committed board never ranks people"
        )
    if args.check:
        stale = site.stale(root)
        for name in stale:
            err(f"stale: {root / name}")
        if stale:
            err("the committed board is stale: run `checkout-consent leaderboard build`")
    else:
        stale = []
        for name in site.write(root, args.rank_humans):
            print(root / name)
    left_off = refused(root / "submissions")
    for line in left_off:
        err(f"left off the board: {line}")
    if args.check and not stale and not left_off:
        print(f"ok: {root} is current")
    return 1 if stale or left_off else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    submit = sub.add_parser("submit", help="leaderboard submissions")
    verbs = submit.add_subparsers(dest="submit_command", required=True)
    p = verbs.add_parser("validate", help="re-grade a submission folder; non-zero on refusal")
    p.add_argument("dirs", nargs="+", metavar="DIR", help="leaderboard/submissions/<family>/<id>")
    p.add_argument("--json", action="store_true", help="the verdicts as JSON")
    p.add_argument(
        "--no-cassettes",
        action="store_true",
        help="skip replaying included cassettes (everything else is checked)",
    )
    p.set_defaults(fn=validate)
    p = sub.add_parser(
        "reproduce",
        help="re-run a submission's model on its samples (your key; a control needs none; "
        "--cassette replay: keyless) and compare the headline with its 95%% CI",
    )
    p.add_argument("submission", metavar="SUBMISSION", help="leaderboard/submissions/<family>/<id>")
    p.add_argument(
        "--record",
        action="store_true",
        help="on success, mark it reproduced in leaderboard/reproduced.yaml",
    )
    p.add_argument(
        "--cassette",
        choices=("off", "replay"),
        default="off",
        help="replay: replay the run's recorded traffic (the submission's cassettes, else "
        "the committed cassettes/ of its model), no key, no network (default: off, a re-run)",
    )
    p.add_argument(
        "--keep-logs",
        dest="log_dir_keep",
        metavar="DIR",
        help="keep the re-run's logs in DIR (default: a temporary folder)",
    )
    p.set_defaults(fn=reproduce)
    board = sub.add_parser("leaderboard", help="the leaderboard")
    verbs = board.add_subparsers(dest="board_command", required=True)
    p = verbs.add_parser("build", help="render leaderboard/README.md and site/ from submissions")
    p.add_argument("--check", action="store_true", help="fail if the committed board is stale")
    p.add_argument("--root", default=DEFAULT_ROOT, help="the leaderboard folder")
    p.add_argument(
        "--rank-humans",
        action="store_true",
        help="rank people's rows (kind: human) with the models' (never on the committed board)",
    )
    p.set_defaults(fn=build)
