"""Errors the sandbox answers with: always ``{"message": "…"}`` and the contract's status."""

from __future__ import annotations

import json
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

log = logging.getLogger("frontdesk.sandbox")

MESSAGES = {
    400: "Invalid value in request",
    401: "User is unauthorized to perform an underlying operation",
    404: "The requested resource could not be found",
    405: "Method not allowed",
    409: "The request conflicts with the current state of the resource",
    429: "Too many requests",
    500: "There was an internal server error while processing the request",
}


class ApiProblem(Exception):
    """A request the sandbox refuses: raised anywhere in a route, answered as JSON."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bad_request(message: str) -> ApiProblem:
    """400: the request is malformed or breaks a rule."""
    return ApiProblem(400, message)


def not_found(what: str) -> ApiProblem:
    """404: ``what`` (e.g. "Conversation 12") does not exist."""
    return ApiProblem(404, f"{what} could not be found")


def conflict(message: str) -> ApiProblem:
    """409: the request conflicts with the resource's state."""
    return ApiProblem(409, message)


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """The JSON error response of the contract."""
    body = json.dumps({"message": message}, ensure_ascii=False).encode()
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def _describe(exc: RequestValidationError) -> str:
    parts: list[str] = []
    for error in exc.errors()[:3]:
        loc = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body",))
        kind = error.get("type", "")
        if kind == "json_invalid":
            return "Decoding failure in request: the body is not valid JSON"
        msg = str(error.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "Invalid value in request: " + "; ".join(parts)


def install(app: FastAPI) -> None:
    """Answer every failure with the contract's JSON error body."""

    @app.exception_handler(ApiProblem)
    async def _problem(_: Request, exc: ApiProblem) -> Response:
        return error_response(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> Response:
        return error_response(400, _describe(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code
        message = MESSAGES.get(status, str(exc.detail))
        if status == 404:
            message = "No such route: " + MESSAGES[404]
        return error_response(status, message, dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error_response(500, MESSAGES[500])
