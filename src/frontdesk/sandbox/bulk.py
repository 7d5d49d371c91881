"""Outcomes of bulk operations: one per item, in order, the items that succeed kept even when
others fail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ApiProblem


def success(data: Any) -> dict[str, Any]:
    """``BulkActionSuccess`` carrying the item's record."""
    return {"_type": "BulkActionSuccess", "data": data}


def failure(kind: str | None, message: str, item_id: str | None = None) -> dict[str, Any]:
    """``BulkActionFailure`` with its error (``kind`` ``None``: the message alone)."""
    error: dict[str, Any] = {"message": message}
    if kind is not None:
        error["_type"] = kind
    if item_id is not None:
        error["id"] = item_id
    return {"_type": "BulkActionFailure", "error": error}


def outcome(item_id: str | None, what: str, action: Callable[[], Any],
            shape: Callable[[Any], Any]) -> dict[str, Any]:
    """Run one item's action; its refusal becomes that item's failure (``NotFound`` or
    ``Validation``), not the request's."""
    try:
        return success(shape(action()))
    except ApiProblem as problem:
        if problem.status == 404:
            return failure("NotFound", f"{what} not found", item_id)
        return failure("Validation", problem.message, item_id)
