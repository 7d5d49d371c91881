"""The anonymisation requests made from this console, kept in the local store.

The service lists no requests, so the ones made here are remembered (newest first, at most
``KEPT``) to show their status later.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..api.models import AnonymizationRequestStatus
    from .local import LocalStore

#: how many requests are remembered
KEPT = 200


def remember_anonymization(local: LocalStore, status: AnonymizationRequestStatus) -> None:
    """Keep an anonymisation request made here, to show its status later."""
    kept = local.snapshot("anonymizations")
    items = kept if isinstance(kept, list) else []
    items = [i for i in items if isinstance(i, dict) and i.get("id") != status.id]
    items.insert(0, status.wire())
    local.save_snapshot("anonymizations", items[:KEPT])


def keep_status(local: LocalStore, status: AnonymizationRequestStatus) -> bool:
    """Update a request kept in the snapshot "anonymizations" in place (its order stays);
    False when it was not made here (then nothing is kept)."""
    kept = local.snapshot("anonymizations")
    items = kept if isinstance(kept, list) else []
    found = False
    replaced: list[Any] = []
    for item in items:
        if isinstance(item, dict) and item.get("id") == status.id:
            replaced.append(status.wire())
            found = True
        else:
            replaced.append(item)
    if found:
        local.save_snapshot("anonymizations", replaced)
    return found
