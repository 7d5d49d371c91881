"""The sandbox application: every operation of the service on FastAPI and SQLite."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.openapi.utils import get_openapi

from . import errors, worker
from .clock import Clock
from .context import SandboxContext
from .db import Database
from .faults import Faults
from .guard import Guard, MethodTable
from .routes import ROUTERS, integrations

ERROR_SCHEMA = {
    "type": "object",
    "properties": {"message": {"type": "string"}},
    "required": ["message"],
}
COMMON_ERRORS = {
    "400": "Invalid input: a malformed id, body or parameter, or a broken rule",
    "401": "Missing or unknown API key",
    "429": "Over the rate budget (10 requests/s, burst 4); see Retry-After",
}


def create_app(
    db_path: Path | str,
    keys: Iterable[str],
    clock: Clock | None = None,
    faults: Faults | None = None,
    *,
    rate_limit: bool = True,
    run_worker: bool = True,
    work_delay: float = 0.5,
) -> Any:
    """The sandbox as an ASGI app (the FastAPI app wrapped in its guard).

    ``app.state.sandbox`` (also ``guard.ctx``) is the ``SandboxContext`` shared by the routes,
    the worker and the simulator.
    """
    ctx = SandboxContext(
        db=Database(db_path),
        clock=clock or Clock(),
        faults=faults or Faults(),
        keys=tuple(keys),
        rate_limit=rate_limit,
        work_delay=work_delay,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(worker.run_forever(ctx)) if run_worker else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    app = FastAPI(
        title="Customer Conversation Service API (frontdesk sandbox)",
        version="v1",
        description="A stateful local implementation of the Customer Conversation Service "
        "API v1. Authenticate with `Authorization: <API key>`.",
        lifespan=lifespan,
        redirect_slashes=False,
    )
    app.state.sandbox = ctx
    errors.install(app)
    for router in ROUTERS:
        _include(app, router)
    _include(app, integrations.router, prefix=ctx.integrations_prefix)

    @app.get("/health", include_in_schema=False)
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    guard = Guard(app, ctx, MethodTable(_methods(app)))
    guard.state = app.state  # type: ignore[attr-defined]
    return guard


#: The service's routers as FastAPI includes them, by router and prefix. FastAPI prepares an
#: included router's operations (each parameter's validator) on the first request that reaches
#: it, tens of milliseconds of CPU per app; the routes are the same in every app, so a process
#: running many sandboxes (the tests start one per test) prepares them once and every later app
#: takes them prepared. Nothing in them belongs to one app: a route finds its sandbox through
#: the app serving the request (``context.context``).
_INCLUDED: dict[tuple[int, str], Any] = {}


def _include(app: FastAPI, router: APIRouter, prefix: str = "") -> None:
    """``app.include_router(router, prefix=prefix)``, with the included router this process
    made first for the same router and prefix."""
    app.include_router(router, prefix=prefix)
    app.router.routes[-1] = _INCLUDED.setdefault((id(router), prefix), app.router.routes[-1])


def _methods(app: FastAPI) -> dict[str, set[str]]:
    """Path template → the methods served there (routers included with a prefix too)."""
    table: dict[str, set[str]] = {}

    def walk(routes: Iterable[Any], prefix: str) -> None:
        for route in routes:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                context = getattr(route, "include_context", None)
                walk(inner.routes, prefix + (getattr(context, "prefix", "") or ""))
                continue
            path = getattr(route, "path", None)
            methods = getattr(route, "methods", None)
            if path and methods:
                full = prefix + path
                if full.startswith(("/v1/", "/integrations/", "/files/")):
                    table.setdefault(full, set()).update(methods)

    walk(app.routes, "")
    return table


#: The OpenAPI document by the app's integrations prefix: the routes are the same in every
#: app, and building it takes a second of CPU (a process running many sandboxes, the tests,
#: builds it once). Read only.
_DOCUMENTS: dict[str, dict[str, Any]] = {}


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with our auth schemes and the errors every operation can give."""
    if app.openapi_schema:
        return app.openapi_schema
    prefix: str = app.state.sandbox.integrations_prefix
    if prefix in _DOCUMENTS:
        app.openapi_schema = _DOCUMENTS[prefix]
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, description=app.description,
                      routes=app.routes)
    components = doc.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["ErrorBody"] = ERROR_SCHEMA
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    components["securitySchemes"] = {
        "ApiKeyAuth": {"type": "apiKey", "in": "header", "name": "Authorization"},
        "BearerAuth": {"type": "http", "scheme": "bearer"},
    }
    ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    for path, item in doc.get("paths", {}).items():
        legacy = path.startswith("/integrations/")
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            responses.pop("422", None)
            for status, text in COMMON_ERRORS.items():
                responses.setdefault(status, {"description": text, **ref})
            for status, response in responses.items():
                if status.startswith(("4", "5")) and "content" not in response:
                    response.update(ref)
                if status in ("202", "204"):
                    response.pop("content", None)  # these answers have no body
            operation["security"] = (
                [{"ApiKeyAuth": []}, {"BearerAuth": []}] if legacy else [{"ApiKeyAuth": []}]
            )
    app.openapi_schema = _DOCUMENTS[prefix] = doc
    return doc
