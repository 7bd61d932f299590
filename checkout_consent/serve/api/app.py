"""The scoring service's ASGI app (FastAPI; served by uvicorn, `checkout-consent serve-api`).

Everything a client sends is hostile: a refused request is one JSON line
`{"error": ..., "field": ...}` with 400 (401 an owned agent name without its token, 404
unknown route/family/task/submission, 413 body too large), nothing stored, never a 5xx. A
valid submission that hard-fails is stored and answered 200 with the fail flagged in its
record. Path and query arguments are `arguments` types: a value its type refuses is named
as the MCP tool names it (`season`, not `query.season`), 404 in a path (it names nothing),
400 in a query."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from checkout_consent import __version__
from checkout_consent.core.consent import breached
from checkout_consent.families import names
from checkout_consent.serve.api import models
from checkout_consent.serve.api.arguments import Season, SubmissionId, TaskId
from checkout_consent.serve.api.service import NotFound, Service, Unauthorized
from checkout_consent.serve.api.storage import Row
from checkout_consent.serve.api.submission import MAX_BODY, Invalid, TraceSubmission

FAMILY = Path(json_schema_extra={"enum": names()})  # others: 404, as any unknown


class TooLarge(Exception):
    pass


def _error(
    status: int, error: str, field: str | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        models.Error(error=error, field=field).model_dump(), status_code=status, headers=headers
    )


async def read_capped(request: Request) -> bytes:
    """The request body, refused (413) past MAX_BODY whatever Content-Length claims."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def submission_out(row: Row, token: str | None = None) -> models.Submission:
    """A stored submission as served: its record, consent ledger, and a new token."""
    fields = {k: v for k, v in row._asdict().items() if k != "submission"}
    return models.Submission(
        **fields,
        consent=row.record.get("consent"),
        consent_breached=breached(row.record),
        agent_token=token,
    )


def bearer(request: Request) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header (None without one)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(Invalid)
    async def invalid(_: Request, error: Invalid) -> JSONResponse:
        return _error(400, error.message, error.field)

    @app.exception_handler(NotFound)
    async def not_found(_: Request, error: NotFound) -> JSONResponse:
        return _error(404, str(error))

    @app.exception_handler(Unauthorized)
    async def unauthorized(_: Request, error: Unauthorized) -> JSONResponse:
        return _error(401, str(error), "authorization", {"WWW-Authenticate": "Bearer"})

    @app.exception_handler(TooLarge)
    async def too_large(_: Request, error: TooLarge) -> JSONResponse:
        return _error(413, f"body larger than {MAX_BODY} bytes", "body")

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where, *field = first.get("loc", ("query",))
        return _error(
            404 if where == "path" else 400,
            str(first.get("msg", "invalid request")),
            ".".join(str(p) for p in field) or None,
        )

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail), headers=error.headers)

    @app.exception_handler(Exception)
    async def bug(_: Request, error: Exception) -> JSONResponse:
        return _error(500, f"internal error: {type(error).__name__}")


def _read_routes(app: FastAPI, service: Service) -> None:
    @app.get("/health")
    def health() -> models.Health:
        return models.Health(status="ok", submissions=service.storage.count())

    @app.get("/v1/families")
    def families() -> models.Families:
        return models.Families(families=[models.FamilyInfo(**f) for f in service.families()])

    @app.get("/v1/{family}/tasks", responses={404: {"model": models.Error}})
    def tasks(family: str = FAMILY) -> models.TaskList:
        return models.TaskList(family=family, tasks=service.tasks(family))

    @app.get("/v1/{family}/tasks/{task}", responses={404: {"model": models.Error}})
    def task(task: TaskId, family: str = FAMILY) -> models.TaskDetail:
        return models.TaskDetail(**service.task(family, task))

    @app.get("/v1/submissions/{submission_id}", responses={404: {"model": models.Error}})
    def submission(submission_id: SubmissionId) -> models.Submission:
        return submission_out(service.submission(submission_id))

    @app.get("/v1/{family}/leaderboard", responses={404: {"model": models.Error}})
    def leaderboard(family: str = FAMILY, season: Season | None = None) -> models.Leaderboard:
        entries = [models.BoardEntry(**e) for e in service.leaderboard(family, season)]
        return models.Leaderboard(family=family, season=season, entries=entries)

    @app.get("/v1/provenance")
    def provenance() -> models.Provenance:
        return models.Provenance(**service.provenance())


SCORE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/TraceSubmission"},
                        {
                            "type": "object",
                            "description": "a family's own submission (for a family that "
                            "scores one, e.g. a cart and an agent card), naming its task "
                            "`task` as every body does",
                        },
                    ]
                }
            }
        },
    }
}


def _score_route(app: FastAPI, service: Service) -> None:
    @app.post(
        "/v1/{family}/score",
        openapi_extra=SCORE_BODY,
        responses={status: {"model": models.Error} for status in (400, 401, 404, 413)},
    )
    async def score(request: Request, family: str = FAMILY) -> models.Submission:
        """Grade a submission and store it: a saved trace `{"task": ID, "calls":
        [{"tool": ..., "args": {...}}, ...], "agent": {"name": ...}}`, or the family's own
        submission where it scores one. An agent name is owned by its first submitter:
        that answer carries `agent_token`, and every later submission under the name must
        send it as `Authorization: Bearer TOKEN` (401 otherwise). Every body names its task
        `task` (`task_id` is refused, 400); an example body for every family ships with the
        suite (checkout_consent/serve/README.md, "Example bodies")."""
        body = await read_capped(request)
        row, issued = await run_in_threadpool(service.submit, family, body, bearer(request))
        return submission_out(row, issued)


def create_app(service: Service) -> FastAPI:
    from fastapi_offline import FastAPIOffline  # /docs and /redoc from packaged assets

    app = FastAPIOffline(
        title="checkout-consent scoring service", version=__version__, description=__doc__
    )
    _handlers(app)
    _read_routes(app, service)
    _score_route(app, service)
    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        doc = plain_openapi()
        schema = TraceSubmission.model_json_schema(ref_template="#/components/schemas/{model}")
        components = doc.setdefault("components", {}).setdefault("schemas", {})
        components.update(schema.pop("$defs", {}))
        components["TraceSubmission"] = schema
        components.pop("HTTPValidationError", None), components.pop("ValidationError", None)
        error = {
            "description": "refused: one line naming the field",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for operation in (op for path in doc["paths"].values() for op in path.values()):
            queried = any(p["in"] == "query" for p in operation.get("parameters", []))
            if operation["responses"].pop("422", None) is not None and queried:  # we answer 400
                operation["responses"]["400"] = error  # (a bad path argument: 404)
        return doc

    app.openapi = openapi  # type: ignore[method-assign]
    return app


DB_ENV = "CHECKOUT_CONSENT_DB"
HELDOUT_ENV = "CHECKOUT_CONSENT_SERVE_HELDOUT"  # "1": `serve-api --serve-heldout`


def from_environment() -> FastAPI:
    """The app as $CHECKOUT_CONSENT_DB and $CHECKOUT_CONSENT_SERVE_HELDOUT say (workers)."""
    import os

    from checkout_consent.serve.api.storage import Storage, default_db

    return create_app(
        Service(
            Storage(os.environ.get(DB_ENV) or default_db()),
            serve_heldout=os.environ.get(HELDOUT_ENV) == "1",
        )
    )
