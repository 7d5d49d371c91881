"""What an outbox item holds and what is sent of it: the payload of a reply or of an
internal note, in the shape :meth:`~.outbox.Outbox.enqueue` stores, and an item's request
body."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from frontdesk.api.models import OutboundMessageInput

    from .outbox import OutboxItem

__all__ = ["CONTENT_TYPES", "composed_attachments", "note_payload", "outbound_message",
           "reply_payload"]

#: The content types a reply can have.
CONTENT_TYPES = ("Text", "Markdown", "Html")


def reply_payload(text: str, *, agent_id: str, content_type: str = "Text",
                  attachments: list[dict[str, str]] | None = None,
                  composed: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The payload of a reply, in the shape :meth:`Outbox.enqueue` stores.

    ``composed`` are the attachments as the composer held them (a local file by its path)
    when they differ from those sent (the file read into a ``data:`` URL): kept, never sent,
    so a reply taken back out of the outbox comes back exactly as it was written.
    """
    payload: dict[str, Any] = {"content": text, "content_type": content_type,
                               "attachments": list(attachments or []), "agent_id": agent_id}
    if composed is not None and composed != payload["attachments"]:
        payload["composed"] = [dict(entry) for entry in composed]
    return payload


def composed_attachments(payload: dict[str, Any]) -> list[dict[str, str]]:
    """An item's attachments as the composer held them (what a draft takes back)."""
    entries = payload.get("composed")
    if not isinstance(entries, list):
        entries = payload.get("attachments") or []
    return [{str(k): str(v) for k, v in entry.items()} for entry in entries
            if isinstance(entry, dict)]


def note_payload(text: str, *, agent_id: str, created_at: str) -> dict[str, Any]:
    """The payload of an internal note, in the shape :meth:`Outbox.enqueue` stores.

    ``created_at`` (UTC, milliseconds) is sent as the note's time and is what tells a resend
    that an earlier attempt was stored: notes carry no ``externalId``.
    """
    return {"kind": "note", "content": text, "agent_id": agent_id, "created_at": created_at}


def outbound_message(item: OutboxItem) -> OutboundMessageInput:
    """The request body of ``item``: an outbound message carrying its ``external_id``.

    Raises pydantic's ``ValidationError`` when the payload breaks the contract (the outbox
    then marks the item failed with that message).
    """
    from frontdesk.api.models import ContentInput, FileInput, OutboundMessageInput

    payload = item.payload
    text = payload.get("content") or ""
    files = [FileInput.model_validate(entry) for entry in payload.get("attachments") or []]
    return OutboundMessageInput.model_validate({
        "_type": "Outbound",
        "agentId": payload.get("agent_id"),
        "content": ContentInput.model_validate(
            {"value": text, "_type": payload.get("content_type", "Text")}
        ) if text else None,
        "attachments": files or None,
        "externalId": item.external_id,
    })
