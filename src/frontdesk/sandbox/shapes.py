"""Rows as the service sends them: one function per record, shared by every route module.

Built as plain dicts (not through the pydantic models) because they run on every request;
tests validate their output against ``frontdesk.api.models``.
"""

from __future__ import annotations

from typing import Any

from .context import SandboxContext
from .db import loads


def zoned(stored: str | None) -> str | None:
    """A stored ``…Z`` time in the zoned form ``…Z[GMT]`` (messages, anonymisation)."""
    return None if stored is None else stored + "[GMT]"


def local(stored: str | None) -> str | None:
    """A stored ``…Z`` time in the zone-less form (presence)."""
    return None if stored is None else stored.rstrip("Z")


def _put(out: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def tag(row: Any) -> dict[str, Any]:
    """A tag."""
    out = {"id": row["id"], "name": row["name"], "state": row["state"]}
    _put(out, "color", row["color"])
    return out


def custom_attribute_values(ctx: SandboxContext, entity_type: str, entity_id: str
                            ) -> list[dict[str, Any]]:
    """The custom attributes set on an end user (``Contact``) or a conversation."""
    rows = ctx.db.all(
        "SELECT d.id, d.label, d.identifier, v.value FROM custom_attribute_values v "
        "JOIN custom_attribute_definitions d ON d.id = v.attribute_id "
        "WHERE v.entity_type = ? AND v.entity_id = ? ORDER BY d.position, d.identifier",
        (entity_type, entity_id),
    )
    return [
        {"id": r["id"], "name": r["label"], "identifier": r["identifier"],
         "value": loads(r["value"])}
        for r in rows
    ]


def conversation(ctx: SandboxContext, row: Any, *, custom_attributes: bool = True
                 ) -> dict[str, Any]:
    """A conversation, with its custom attributes unless told otherwise."""
    out: dict[str, Any] = {
        "id": row["id"],
        "requesterId": row["requester_id"],
        "channel": row["channel"],
        "createdAt": row["created_at"],
        "_type": row["type"],
    }
    _put(out, "direction", row["direction"])
    _put(out, "state", row["state"])
    _put(out, "stateUpdatedAt", row["state_updated_at"])
    if row["type"] == "AnonymizedConversation":
        out["anonymizedAt"] = row["anonymized_at"]
    else:
        if row["assigned_agent_id"] is not None:
            out["assignment"] = {"agentId": row["assigned_agent_id"],
                                 "assignedAt": row["assigned_at"]}
        if row["queue_id"] is not None:
            queue = {"id": row["queue_id"]}
            _put(queue, "queuedAt", row["queued_at"])
            out["queue"] = queue
    _put(out, "link", loads(row["link"]))
    for column, key in (
        ("subject", "subject"), ("to_email", "toEmail"), ("from_email", "fromEmail"),
        ("integration_email", "integrationEmail"), ("language", "language"),
        ("from_number", "fromNumber"), ("to_number", "toNumber"),
    ):
        _put(out, key, row[column])
    _put(out, "browserInfo", loads(row["browser_info"]))
    if custom_attributes:
        out["customAttributes"] = custom_attribute_values(ctx, "Conversation", str(row["id"]))
    return out


def message(row: Any) -> dict[str, Any]:
    """A message (its attributes are stored in wire form)."""
    out: dict[str, Any] = {
        "id": row["id"],
        "authorId": row["author_id"],
        "createdAt": zoned(row["created_at"]),
        "attributes": loads(row["attributes"]),
    }
    _put(out, "externalId", row["external_id"])
    return out


_USER_FIELDS = (
    ("display_name", "displayName"), ("email", "email"), ("phone_number", "phoneNumber"),
    ("first_name", "firstName"), ("last_name", "lastName"), ("avatar_url", "avatarUrl"),
)
_USER_LISTS = (
    ("additional_emails", "additionalEmails"),
    ("additional_phone_numbers", "additionalPhoneNumbers"),
    ("middle_names", "middleNames"),
)


def _person(row: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row["id"], "createdAt": row["created_at"]}
    for column, key in _USER_FIELDS:
        _put(out, key, row[column])
    for column, key in _USER_LISTS:
        _put(out, key, loads(row[column]))
    return out


def enduser(ctx: SandboxContext, row: Any, *, custom_attributes: bool = True) -> dict[str, Any]:
    """An end user, with custom attributes unless told otherwise (lists omit them)."""
    out = _person(row)
    _put(out, "externalId", row["external_id"])
    if custom_attributes:
        out["customAttributes"] = custom_attribute_values(ctx, "Contact", row["id"])
    return out


def agent(row: Any) -> dict[str, Any]:
    """An agent or admin (``displayName`` and ``email`` are always present)."""
    out = _person(row)
    out.setdefault("displayName", row["email"] or row["id"])
    out.setdefault("email", "")
    out["roles"] = loads(row["roles"]) or ["Agent"]
    return out


def presence(row: Any, request_time: str) -> dict[str, Any]:
    """An agent's presence; times in the zone-less form."""
    out: dict[str, Any] = {
        "userId": row["user_id"],
        "requestTime": local(request_time),
        "connectionStatus": row["connection_status"],
        "presenceStatus": row["presence_status"],
        "activeChannels": loads(row["channels"]) or [],
    }
    _put(out, "lastSeen", local(row["last_seen"]))
    return out
