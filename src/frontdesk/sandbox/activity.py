"""The activity log: one entry for every change the sandbox makes to a conversation.

Entries are written where the change is made — the state machine (``rules``), the routes that
add messages, notes, tags, ratings and links, and the anonymisation — inside the same
transaction, so a refused request leaves no entry behind and nothing is re-derived later.

An entry's ``_type`` and ``attributes`` follow the published log: ``ConversationClaimed``
(``claimedFromType``, ``claimedFromLabel``), ``TransferSuccessful`` (``transferType``,
``destinationType``, ``destinationId``, ``destinationLabel``), ``TagAdded`` (``tag``),
``NoteAdded`` (``message``), ``MessageAddedByAgent`` (``messageId``), ``ConversationRated``
(``agent``, ``score``, ``message``), ``ConversationLinkedToParent`` (``child``, ``parent``,
``linkType``) and so on. ``activityType`` (deprecated) is the older name of the same thing.
"""

from __future__ import annotations

from typing import Any

from . import webhooks
from .context import SandboxContext
from .db import dumps, loads
from .shapes import zoned

#: ``_type`` values whose deprecated ``activityType`` is ``<_type>ActivityType``.
_OLD_NAMES = frozenset({
    "ConversationAssigned", "ConversationAutoreplySent", "ConversationClaimed",
    "ConversationClosed", "ConversationCreatedByAgent", "ConversationCreatedByCustomer",
    "ConversationEndUserReplaced", "ConversationLanguageUpdated", "ConversationOfferAccepted",
    "ConversationOfferRejected", "ConversationOfferTimeout", "ConversationOffered",
    "ConversationPending", "ConversationRated", "ConversationRatingCancelled",
    "ConversationRatingOffered", "ConversationRatingScheduled", "ConversationRatingUnscheduled",
    "ConversationReopened", "ConversationTranscriptionEnded", "ConversationTranscriptionStarted",
    "ConversationUnassigned", "FollowupAdded", "FollowupExpired", "FollowupRemoved",
    "MessageAddedByAgent", "MessageAddedByCustomer", "NoteAdded", "TagAdded", "TagRemoved",
    "TransferFailed", "TransferInitiated", "TransferSuccessful",
})


def record(ctx: SandboxContext, conversation_id: int, kind: str, *,
           author_id: str | None = None, at: str | None = None,
           **attributes: Any) -> None:
    """Write one entry (``at``: a stored time, default now); ``None`` attributes are left
    out. The caller owns the transaction. The entry's event is queued to the webhooks that
    want it."""
    details = {k: v for k, v in attributes.items() if v is not None}
    at = at or ctx.now_iso()
    ctx.db.run(
        "INSERT INTO activity_log (id, conversation_id, at, type, author_id, attributes) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (ctx.new_id(), conversation_id, at, kind, author_id,
         dumps(details) if details else None),
    )
    webhooks.emit(ctx, conversation_id, kind, author_id, at, details)


def person(ctx: SandboxContext, user_id: str | None) -> dict[str, Any] | None:
    """A user as the log names them: id, and name, email and phone when known."""
    if user_id is None:
        return None
    out: dict[str, Any] = {"id": user_id}
    row = ctx.db.one("SELECT display_name, email, phone_number FROM users WHERE id = ?",
                     (user_id,))
    if row is not None:
        for column, key in (("display_name", "name"), ("email", "email"),
                            ("phone_number", "phoneNumber")):
            if row[column]:
                out[key] = row[column]
    return out


def created(ctx: SandboxContext, conversation_id: int, direction: str | None, author_id: str,
            subject: str | None = None, at: str | None = None) -> None:
    """A conversation began: by the customer (inbound) or by an agent (outbound)."""
    kind = ("ConversationCreatedByAgent" if direction == "Outbound"
            else "ConversationCreatedByCustomer")
    record(ctx, conversation_id, kind, author_id=author_id, at=at, subject=subject)


def abandoned(ctx: SandboxContext, conversation_id: int, author_id: str | None, at: str,
              queue_id: str) -> None:
    """A conversation ended while it waited in ``queue_id``, unanswered: the webhooks' event
    (the activity log has no entry of its own for it; the closing is there)."""
    webhooks.emit_event(ctx, conversation_id, "ConversationAbandoned", author_id, at,
                        {"queueId": queue_id})


def message_added(ctx: SandboxContext, conversation_id: int, direction: str, author_id: str,
                  message_id: str, at: str | None = None) -> None:
    """A message was added, by the customer or by an agent."""
    kind = "MessageAddedByAgent" if direction == "Outbound" else "MessageAddedByCustomer"
    record(ctx, conversation_id, kind, author_id=author_id, at=at, messageId=message_id)


def entry(ctx: SandboxContext, row: Any, people: dict[str, dict[str, Any] | None]
          ) -> dict[str, Any]:
    """An entry as the service sends it (``people`` caches the authors of one answer)."""
    kind = str(row["type"])
    out: dict[str, Any] = {
        "id": row["id"],
        "conversationId": row["conversation_id"],
        "activityTimestamp": zoned(row["at"]),
        "activityType": f"{kind}ActivityType" if kind in _OLD_NAMES else "UnknownActivityType",
        "_type": kind,
    }
    author_id = row["author_id"]
    if author_id is not None:
        if author_id not in people:
            people[author_id] = person(ctx, author_id)
        out["author"] = people[author_id]
    attributes = loads(row["attributes"])
    if attributes:
        out["attributes"] = attributes
    return out
