"""Which operation of the service a request to the gateway is: its method and path, matched
against the path templates of :data:`~frontdesk.api.operations.OPERATION_TABLE`.

The gateway serves the service's API at the same paths: the main interface under ``/v1/…``
and the deprecated endpoint listing under ``/integrations/v1/…``. A path is matched segment by
segment on its raw (still percent-encoded) form, so an encoded ``/`` inside an id never splits
it; where two templates fit (``/v1/conversations/search`` and
``/v1/conversations/{conversationId}``) the one with more literal segments wins, as it does in
the service.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import unquote

from frontdesk.api.operations import OPERATION_TABLE, Interface, Operation

__all__ = ["INTEGRATIONS_PREFIX", "READ_ONLY_POSTS", "Route", "allowed_methods", "is_write",
           "match",
           "split_interface", "targets"]

#: Where the gateway serves the deprecated endpoint listing (its ``/v1/…`` paths follow).
INTEGRATIONS_PREFIX = "/integrations"
#: The POSTs that only read (a search, the analytics queries): paced and audited as reads.
READ_ONLY_POSTS = frozenset({"search.conversations", "search.conversations_by_text",
                             "analytics.metric_data", "analytics.records"})


@dataclass(frozen=True, slots=True)
class Route:
    """A request matched to an operation: the operation and its path parameters (decoded)."""

    operation: Operation
    params: dict[str, str]


_Template = tuple[Operation, tuple[str | None, ...], tuple[str, ...]]


def _compile() -> dict[tuple[Interface, str, int], list[_Template]]:
    """The templates by interface, method and number of segments, most literal first."""
    table: dict[tuple[Interface, str, int], list[_Template]] = defaultdict(list)
    for op in OPERATION_TABLE:
        parts = op.path.strip("/").split("/")
        literals = tuple(None if p.startswith("{") else p for p in parts)
        names = tuple(p[1:-1] for p in parts if p.startswith("{"))
        table[(op.interface, op.method, len(parts))].append((op, literals, names))
    for templates in table.values():
        templates.sort(key=lambda t: -sum(1 for p in t[1] if p is not None))
    return dict(table)


_TEMPLATES = _compile()


def is_write(operation: Operation) -> bool:
    """Whether ``operation`` may change something at the service (it is audited)."""
    return operation.method != "GET" and operation.name not in READ_ONLY_POSTS


def split_interface(raw_path: str) -> tuple[Interface, str] | None:
    """``("main", "/v1/…")`` or ``("integrations", "/v1/…")`` for a path the gateway passes
    on; None for any other path."""
    if raw_path.startswith("/v1/"):
        return "main", raw_path
    if raw_path.startswith(INTEGRATIONS_PREFIX + "/v1/"):
        return "integrations", raw_path[len(INTEGRATIONS_PREFIX):]
    return None


def allowed_methods(interface: Interface, raw_path: str) -> list[str]:
    """The methods of the operations at ``raw_path`` (for a 405's Allow), sorted: those of
    the most literal templates that fit, as the service routes."""
    fits: dict[int, set[str]] = defaultdict(set)
    for where, method, _ in _TEMPLATES:
        if where != interface:
            continue
        route = match(interface, method, raw_path)
        if route is not None:
            literals = route.operation.path.count("/") - route.operation.path.count("{")
            fits[literals].add(method)
    return sorted(fits[max(fits)]) if fits else []


def match(interface: Interface, method: str, raw_path: str) -> Route | None:
    """The operation ``method raw_path`` performs on ``interface``; None when none does."""
    segments = raw_path.strip("/").split("/")
    if any(not s for s in segments):
        return None
    for op, literals, names in _TEMPLATES.get((interface, method.upper(), len(segments)), ()):
        values: list[str] = []
        for literal, segment in zip(literals, segments, strict=True):
            if literal is None:
                values.append(unquote(segment))
            elif literal != segment:
                break
        else:
            return Route(op, dict(zip(names, values, strict=True)))
    return None


#: Keys at the top of a write's body that name what it acts on (bulk membership, transfer).
_TARGET_KEYS = ("agentIds", "agentId", "userId", "queueId", "tagIds")
_MAX_TARGETS = 50


def targets(route: Route, body: bytes) -> list[str]:
    """The ids a write acts on, for the audit: its path parameters, then the ids its body
    names at the top (at most 50 in all)."""
    found = [str(value) for value in route.params.values()]
    try:
        document = json.loads(body) if body.strip() else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        document = None
    if isinstance(document, dict):
        for key in _TARGET_KEYS:
            value = document.get(key)
            values = value if isinstance(value, list) else [value]
            found.extend(str(v) for v in values if isinstance(v, str | int) and v != "")
    return found[:_MAX_TARGETS]
