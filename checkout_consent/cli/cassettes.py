"""The cassette verbs of `checkout-consent`: `run --cassette`, `replay`, `serve-controls`,
`record-references` and `cassettes show|merge`."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from checkout_consent.cli.common import clone_hint, one_line
from checkout_consent.cli.common import err as _err
from checkout_consent.core.contract import Record, World


def model_args(items: list[str] | None) -> dict[str, Any]:
    """`-M key=value` pairs (values read as YAML, as `inspect eval -M` reads them)."""
    import yaml

    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"-M expects key=value, got {item!r}")
        out[key] = yaml.safe_load(value)
    return out


def add_run_options(p: argparse.ArgumentParser) -> None:
    from checkout_consent.cassettes import MODES

    p.add_argument(
        "--cassette",
        choices=MODES,
        default="off",
        help="record: run live and save the provider traffic under cassettes/; "
        "replay: serve it from the cassette, no network, no key (default: off)",
    )
    p.add_argument(
        "--cassette-root",
        default=None,
        help="where cassettes live (default: cassettes/ of the checkout)",
    )
    p.add_argument("--model-base-url", help="the provider's base URL (e.g. serve-controls)")
    p.add_argument("-M", action="append", metavar="KEY=VALUE", help="model argument")


def _manifest(args: argparse.Namespace, world: World, task_args: dict[str, Any]) -> Any:
    from checkout_consent.cassettes.store import validated

    return validated(
        "run options",
        dict(
            family=world.name,
            model=args.model,
            base_url=args.model_base_url,
            model_args=model_args(args.M),
            task_args=task_args,
            epochs=args.epochs or 1,
            max_connections=args.max_connections,
        ),
    )


def check_live_key(args: argparse.Namespace, what: str) -> None:
    """A live run's provider key (and an openai-api service's base URL), checked at once."""
    from checkout_consent.cassettes.preflight import check_key

    check_key(args.model, args.model_base_url, model_args(args.M), what=what, lent=False)


def preflight(args: argparse.Namespace, world: World, task_args: dict[str, Any]) -> None:
    """A recording's options and key, or a replay's directory, checked before slow work."""
    from checkout_consent.cassettes import store
    from checkout_consent.cassettes.preflight import check_directory, check_key, check_provider

    mode = getattr(args, "cassette", "off")
    if mode == "replay":
        root = Path(args.cassette_root) if args.cassette_root else store.CASSETTE_ROOT
        check_directory(store.run_dir(world.name, args.model, root))
    if mode != "record":
        return
    manifest = _manifest(args, world, task_args)
    check_provider(manifest.model, "record")
    check_key(manifest.model, manifest.base_url, manifest.model_args)


def retry_args(args: argparse.Namespace) -> dict[str, int]:
    """Inspect's `max_retries` and `timeout` for a model run, where given."""
    chosen = {k: getattr(args, k, None) for k in ("max_retries", "timeout")}
    return {k: v for k, v in chosen.items() if v is not None}


def cassette_run(
    args: argparse.Namespace, world: World, task_args: dict[str, Any]
) -> tuple[list[Record], str]:
    """`run FAMILY --model M --cassette record|replay`: the records and the log path."""
    from checkout_consent.cassettes import store
    from checkout_consent.cassettes.runs import record, replay

    root = Path(args.cassette_root) if args.cassette_root else store.CASSETTE_ROOT
    directory = store.run_dir(world.name, args.model, root)
    if args.cassette == "record":
        manifest = _manifest(args, world, task_args)
        outcome = record(manifest, root=root, log_dir=args.log_dir, eval_args=retry_args(args))
        _err(f"recorded {len(outcome.records)} run unit(s) into {directory}")
    else:
        _err(f"replaying {directory} (its run.json fixes the task arguments)")
        outcome = replay(directory, log_dir=args.log_dir)
        for line in [*outcome.notes, *(f"differs from golden: {d}" for d in outcome.differences)]:
            _err(f"  {line}")
        if outcome.differences:
            raise SystemExit(f"replay of {directory} differs from its golden records")
    return [outcome.records[u] for u in sorted(outcome.records)], outcome.log_path


def _replay_one(directory: Path, args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """One directory's problems (none: ok) and notes; its failure never stops the others."""
    from checkout_consent.cassettes.runs import replay
    from checkout_consent.runtime.runner import RunFailed

    try:
        outcome = replay(directory, log_dir=args.log_dir, rewrite=args.write_goldens)
    except (RunFailed, OSError, ValueError) as failure:
        return [one_line(failure, 1000)], []
    notes = [n for n in outcome.notes if n.startswith("goldens rewritten")]
    scenario = [n for n in outcome.notes if n not in notes]
    if args.whole_set:
        return [*scenario, *outcome.differences], notes
    return list(outcome.differences), [*notes, *(f"partial: {n}" for n in scenario)]


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay every cassette directory under the paths; non-zero on any difference."""
    from checkout_consent.cassettes import store

    paths = [Path(p) for p in args.paths or [store.CASSETTE_ROOT]]
    missing = [p for p in paths if not p.is_dir()]
    if missing:
        hint = "" if args.paths else clone_hint("cassettes")
        _err(f"replay: {missing[0]} is not a directory{hint}")
        return 2
    dirs = store.run_dirs(paths)
    if not dirs:
        _err("replay: no cassettes found")
        return 1
    failed = 0
    for directory in dirs:
        start = time.perf_counter()
        problems, notes = _replay_one(directory, args)
        took = time.perf_counter() - start
        status = "ok" if not problems else f"FAILED ({len(problems)} problem(s))"
        print(f"{status:<8} {directory} ({took:.1f} s)", flush=True)
        for line in [*problems, *notes]:
            print(f"    {line}")
        failed += bool(problems)
    print(f"replayed {len(dirs)} cassette run(s): {len(dirs) - failed} ok, {failed} failed")
    if failed:
        print(
            "If a change to prompts, tools, rules or grading made this on purpose, refresh "
            "the reference cassettes: `checkout-consent record-references [--family NAME]` "
            "(see docs/cassettes.md, 'Refresh')."
        )
    return 1 if failed else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from checkout_consent.endpoint.controls import serve_forever

    serve_forever(args.port)  # an invalid or busy port: PortUnavailable, one line, exit 2
    return 0


def cmd_record_references(args: argparse.Namespace) -> int:
    from checkout_consent.cassettes.runs import record_references

    for directory in record_references(args.family or None, log_dir=args.log_dir, announce=_err):
        print(f"recorded {directory}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print a cassette's requests readably (a unit file, or every unit of a directory)."""
    from checkout_consent.cassettes import store, tools

    for path in tools.cassette_paths(Path(args.path)):
        for unit in store.read_compact(path):
            for line in tools.show(unit, path):
                print(line)
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    """One cassette directory from runs recorded in parts over disjoint seeds or tasks."""
    from checkout_consent.cassettes.preflight import public_gap
    from checkout_consent.cassettes.tools import SELECTORS, merge

    out = Path(args.out)
    merged = merge([Path(p) for p in args.paths], out)
    picked = next((f"{k} {merged.task_args[k]}" for k in SELECTORS if k in merged.task_args), "")
    over = f"{picked} (the public set)" if not public_gap(merged) else picked or public_gap(merged)
    print(f"{out}: {merged.model} over {over} (check it: checkout-consent replay {out})")
    return 0


def add_parsers(sub: Any) -> None:
    from checkout_consent.endpoint.controls import FIXED_PORT

    p = sub.add_parser("replay", help="replay committed cassettes and compare with goldens")
    p.add_argument(
        "paths", nargs="*", help="cassette directories or folders above them (default: cassettes/)"
    )
    p.add_argument(
        "--whole-set",
        action="store_true",
        help="fail a run.json that plays less than the world's public scenario set "
        "(by default such a run is replayed and marked partial, as the board lists it)",
    )
    p.add_argument(
        "--write-goldens",
        action="store_true",
        help="where a replay made exactly the recorded requests, write its records as the "
        "goldens (after a world or grader change; how a real model's run is refreshed, "
        "since it cannot be recorded again)",
    )
    p.set_defaults(fn=cmd_replay)
    p = sub.add_parser(
        "serve-controls",
        help="serve the control agents over the OpenAI and Anthropic wire formats on loopback",
    )
    p.add_argument(
        "--port",
        type=int,
        default=FIXED_PORT,
        help=f"port on 127.0.0.1 (default {FIXED_PORT}: what references use)",
    )
    p.set_defaults(fn=cmd_serve)
    p = sub.add_parser("record-references", help="re-record the reference cassettes")
    p.add_argument("--family", action="append", help="only this family (repeatable)")
    p.set_defaults(fn=cmd_record_references)
    group = sub.add_parser("cassettes", help="read or merge cassettes")
    verbs = group.add_subparsers(dest="cassettes_command", required=True)
    p = verbs.add_parser("show", help="print a cassette's requests and answers readably")
    p.add_argument("path", help="a cassette (cassette.json.gz) or its directory")
    p.set_defaults(fn=cmd_show)
    p = verbs.add_parser(
        "merge",
        help="one cassette directory from runs of one model and world recorded in parts "
        "over disjoint seeds (replay the result to check it)",
    )
    p.add_argument("paths", nargs="+", help="the parts' cassette directories")
    p.add_argument("--out", required=True, help="the merged directory (new or empty)")
    p.set_defaults(fn=cmd_merge)
