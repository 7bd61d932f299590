"""`checkout-consent`: list, run, sanity, show and score, plus each family's own verbs."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from checkout_consent import cli_cassettes
from checkout_consent.core.runner import RunFailed, run_controls, run_models
from checkout_consent.core.surface import ControlRecords, Surface
from checkout_consent.families import SURFACES, surface


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _task_args(args: argparse.Namespace, fam: Surface) -> dict[str, Any]:
    out = dict(fam.task_args)
    for item in args.T or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"-T expects key=value, got {item!r}")
        out[key] = value
    if getattr(args, "seeds", None):
        out["seeds"] = args.seeds
    return out


def sanity(fam: Surface, log_dir: str) -> ControlRecords:
    """Run the family's controls and assert they bracket the score range."""
    name = fam.family.name
    _err(f"sanity {name}: running controls {', '.join(fam.controls)} ...")
    records = run_controls(fam, log_dir=log_dir)
    problems = fam.check_sanity(records)
    for p in problems:
        _err(f"  sanity problem: {p}")
    if problems:
        raise RunFailed(f"sanity {name}: {len(problems)} problem(s); refusing to report results")
    _err(f"sanity {name}: 0 problems")
    return records


def _print(fam: Surface, model: str, records: list[dict[str, Any]]) -> None:
    print(f"\n{fam.family.name} | {model} | {len(records)} sample(s)")
    for r in records:
        print("  " + fam.line(r))
    print("  " + fam.summary(records).replace("\n", "\n  "))


def _model_run(args: argparse.Namespace, fam: Surface) -> tuple[list[dict[str, Any]], str]:
    if args.cassette != "off":
        return cli_cassettes.cassette_run(args, fam, _task_args(args, fam))
    extra = {"model_args": cli_cassettes.model_args(args.M)} if args.M else {}
    run = run_models(fam, [args.model], task_args=_task_args(args, fam), log_dir=args.log_dir,
                     epochs=args.epochs, display=args.display,
                     max_connections=args.max_connections,
                     model_base_url=args.model_base_url, **extra)[0]
    return run.records, run.log_path


def cmd_run(args: argparse.Namespace) -> int:
    if args.cassette != "off" and not args.model:
        raise SystemExit("--cassette record|replay needs --model")
    names = [args.family] if args.family else sorted(SURFACES)
    out: list[dict[str, Any]] = []
    for name in names:
        fam = surface(name)
        controls = sanity(fam, args.log_dir)
        if args.model:
            _err(f"run {name}: {args.model} ...")
            results = {args.model: _model_run(args, fam)}
        else:
            results = {f"control/{name}-{c}": (r, "") for c, r in controls.items()}
        for model, (records, log) in results.items():
            out.append({"family": name, "model": model, "log": log, "records": records,
                        "summary": fam.summary(records)})
            if not args.json:
                _print(fam, model, records)
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(f"\nlogs: {args.log_dir}/ (open with `inspect view --log-dir {args.log_dir}`)")
    return 0


def cmd_sanity(args: argparse.Namespace) -> int:
    for name in args.families or sorted(SURFACES):
        sanity(surface(name), args.log_dir)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from checkout_consent.families import CONTROLS

    for name in [args.family] if args.family else sorted(SURFACES):
        fam = surface(name)
        print(f"{name} (world {fam.family.version}; inspect eval checkout_consent/{fam.task})")
        for item in fam.list_items():
            print(f"  {item}")
        print(f"  controls: {', '.join('control/' + c for c in CONTROLS.names(name))}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    fam = surface(args.family)
    if fam.show is None:
        raise SystemExit(f"{args.family} has no `show`")
    print(fam.show(args.item))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    fam = surface(args.family)
    if fam.score_trace is None:
        raise SystemExit(f"{args.family} has no `score`")
    with open(args.trace) as f:
        trace = json.load(f)
    print(json.dumps(fam.score_trace(args.task, trace), indent=2, sort_keys=True))
    return 0


def _run_parser(sub: Any) -> None:
    p = sub.add_parser("run", help="run a family (all families' controls when none is named)")
    p.add_argument("family", nargs="?", choices=sorted(SURFACES))
    p.add_argument("--model", help="any Inspect model, e.g. anthropic/claude-opus-4-1 or "
                   "control/storefront-oracle (default: the family's controls, offline)")
    p.add_argument("--seeds", help="seed list, e.g. 0-9 or 1,4,7 (storefront)")
    p.add_argument("-T", action="append", metavar="KEY=VALUE", help="task argument")
    p.add_argument("--epochs", type=int)
    p.add_argument("--max-connections", type=int)
    p.add_argument("--display", default=None, help="Inspect display for the model run")
    p.add_argument("--json", action="store_true", help="print the score records as JSON")
    cli_cassettes.add_run_options(p)
    p.set_defaults(fn=cmd_run)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="checkout-consent", description=__doc__)
    ap.add_argument("--log-dir", default="logs", help="where .eval logs go (default: logs)")
    sub = ap.add_subparsers(dest="command", required=True)
    _run_parser(sub)
    p = sub.add_parser("sanity", help="assert the controls bracket the score range")
    p.add_argument("families", nargs="*", choices=[[], *sorted(SURFACES)] and None)
    p.set_defaults(fn=cmd_sanity)
    p = sub.add_parser("list", help="families, scenarios and controls")
    p.add_argument("family", nargs="?", choices=sorted(SURFACES))
    p.set_defaults(fn=cmd_list)
    p = sub.add_parser("show", help="show one task or scenario of a family")
    p.add_argument("family", choices=sorted(SURFACES))
    p.add_argument("item")
    p.set_defaults(fn=cmd_show)
    p = sub.add_parser("score", help="grade a saved tool log with no model")
    p.add_argument("family", choices=sorted(SURFACES))
    p.add_argument("--task", required=True)
    p.add_argument("--trace", required=True, help="JSON file: a list of tool calls")
    p.set_defaults(fn=cmd_score)
    cli_cassettes.add_parsers(sub)
    for fam in SURFACES.values():
        if fam.add_commands is not None:
            fam.add_commands(sub.add_parser(fam.family.name, help=f"{fam.family.name} verbs"))
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.fn(args))
    except (RunFailed, KeyError, FileNotFoundError, ValueError) as err:
        _err(f"checkout-consent: {err}")
        return 2
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
