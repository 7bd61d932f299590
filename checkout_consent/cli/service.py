"""`serve-api` and `mcp`: the scoring service over HTTP (uvicorn) and over MCP stdio, both
storing accepted submissions in one database (SQLite file or PostgreSQL URL)."""

from __future__ import annotations

import argparse
import ipaddress
import os
from typing import Any

from checkout_consent.cli.common import UsageError, err

DB_HELP = (
    "SQLite file or postgresql:// URL (default: the user's data folder, "
    "$XDG_DATA_HOME/checkout-consent/scoring.db or ~/.local/share/checkout-consent/scoring.db)"
)
KEEP_ALIVE = 30  # seconds: a client slower than uvicorn's 5 s default loses a reused socket


def _db(args: argparse.Namespace) -> str:
    from checkout_consent.serve.api.storage import default_db

    return str(args.db) if args.db else default_db()


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve_api(args: argparse.Namespace) -> int:
    import uvicorn

    from checkout_consent.serve.api.app import DB_ENV, HELDOUT_ENV
    from checkout_consent.serve.api.storage import Storage

    if not loopback(args.host) and not args.allow_remote:
        raise UsageError(
            f"--host {args.host} is not loopback; pass --allow-remote to "
            "serve other machines (put TLS and a proxy in front)"
        )
    if not 0 < args.port < 65536 or args.workers < 1:
        raise UsageError("--port must be 1-65535 and --workers at least 1")
    args.db = _db(args)
    Storage(args.db)  # create or check the schema once, before any worker starts
    os.environ[DB_ENV] = args.db
    os.environ[HELDOUT_ENV] = "1" if args.serve_heldout else "0"
    shown = "; serving held-out tasks" if args.serve_heldout else ""
    err(
        f"serve-api: http://{args.host}:{args.port} (db {args.db}, {args.workers} worker(s){shown})"
    )
    uvicorn.run(
        "checkout_consent.serve.api.app:from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="warning",
        timeout_keep_alive=KEEP_ALIVE,
    )
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from checkout_consent.serve.api.service import Service
    from checkout_consent.serve.api.storage import Storage
    from checkout_consent.serve.mcp import serve_stdio

    serve_stdio(Service(Storage(_db(args)), serve_heldout=args.serve_heldout))
    return 0


def cmd_serve_token(args: argparse.Namespace) -> int:
    """Own an agent name for someone (the operator's verb): print its token once."""
    from checkout_consent.serve.api.arguments import Invalid
    from checkout_consent.serve.api.service import Service
    from checkout_consent.serve.api.storage import Storage

    try:
        token = Service(Storage(_db(args))).issue_token(args.agent, replace=args.replace)
    except Invalid as error:
        raise UsageError(f"serve-token: {error.message}") from None
    print(token)
    old = "; the old token no longer works" if args.replace else ""
    err(f"serve-token: {args.agent} is owned by this token (its sha256 is stored; keep it){old}")
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("serve-api", help="the scoring service over HTTP (stores submissions)")
    p.add_argument("--host", default="127.0.0.1", help="bind address (default: loopback)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    p.add_argument(
        "--allow-remote", action="store_true", help="allow binding a non-loopback address"
    )
    p.set_defaults(fn=cmd_serve_api)
    mcp = sub.add_parser("mcp", help="the scoring service as an MCP server over stdio")
    mcp.set_defaults(fn=cmd_mcp)
    for served in (p, mcp):
        served.add_argument(
            "--serve-heldout",
            action="store_true",
            help="also show and grade held-out tasks by id (default: public tasks only; a "
            "held-out task is answered as unknown)",
        )
    token = sub.add_parser(
        "serve-token", help="issue the token that owns an agent name on the scoring service"
    )
    token.add_argument("--agent", required=True, help="the agent name (not owned yet)")
    token.add_argument(
        "--replace",
        action="store_true",
        help="give an owned name a new token (a lost one); the old token stops working",
    )
    token.set_defaults(fn=cmd_serve_token)
    for stored in (p, mcp, token):
        stored.add_argument("--db", default=None, help=DB_HELP)
