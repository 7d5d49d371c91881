"""frontdesk.api: the contract (``frontdesk.api.models``) and the async client of the service.

    from frontdesk.api import ApiClient, NotFound, Priority

    async with ApiClient(base_url, api_key) as client:
        tags = await client.tags.list()

The names below are loaded on first use, so importing ``frontdesk.api.models`` (as the sandbox
and the console's widgets do) does not load httpx2 or the client.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import ApiClient
    from .errors import (
        ApiError,
        Conflict,
        Forbidden,
        InvalidRequest,
        NotFound,
        RateLimited,
        ServiceUnavailable,
        TransportError,
        Unauthorized,
        UnexpectedResponse,
    )
    from .operations import DEPRECATED_OPERATIONS, OPERATION_TABLE, OPERATIONS, Operation
    from .pacing import Pacer, Priority
    from .resources import Page
    from .retry import RetryPolicy
    from .secrets import ApiKey

_EXPORTS: dict[str, str] = {
    "ApiClient": "client",
    "ApiError": "errors",
    "Conflict": "errors",
    "Forbidden": "errors",
    "InvalidRequest": "errors",
    "NotFound": "errors",
    "RateLimited": "errors",
    "ServiceUnavailable": "errors",
    "TransportError": "errors",
    "Unauthorized": "errors",
    "UnexpectedResponse": "errors",
    "DEPRECATED_OPERATIONS": "operations",
    "OPERATION_TABLE": "operations",
    "OPERATIONS": "operations",
    "Operation": "operations",
    "Pacer": "pacing",
    "Priority": "pacing",
    "Page": "resources",
    "RetryPolicy": "retry",
    "ApiKey": "secrets",
}

__all__ = [
    "DEPRECATED_OPERATIONS",
    "OPERATIONS",
    "OPERATION_TABLE",
    "ApiClient",
    "ApiError",
    "ApiKey",
    "Conflict",
    "Forbidden",
    "InvalidRequest",
    "NotFound",
    "Operation",
    "Pacer",
    "Page",
    "Priority",
    "RateLimited",
    "RetryPolicy",
    "ServiceUnavailable",
    "TransportError",
    "Unauthorized",
    "UnexpectedResponse",
]


def __getattr__(name: str) -> Any:
    """Load an exported name from its module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
