"""The conversation state machine: every change of a conversation's state happens here.

Routes call these functions inside their transaction; nothing else writes ``state``,
``assigned_agent_id``, ``queue_id`` or ``followup_until``.

    create inbound   → Open, queued (given or default queue), unassigned
    create outbound  → Open, assigned to the author
    claim            → assigned, leaves the queue (409 if someone else has it and not force)
    transfer         → unassigned, queued in the target queue now
    follow-up        → Pending until the timestamp, then Open (an inbound message too);
                       refused on a Closed conversation or for a time not in the future
    close            → Closed, leaves the queue (the assignment is kept)
    reopen           → Closed: Open, unassigned, queued again (default queue);
                       Pending: Open now, the follow-up ended (as when it expires);
                       Open: unchanged
    inbound message on Closed → Open, unassigned, queued again (default queue)
    import           → Closed when it carries a closing, else Open and assigned (assignment)
                       or queued (default queue)

Claim and transfer of a Closed conversation open it again. An anonymized conversation takes
no claim, transfer, follow-up or reopen (400); closing it again is harmless.

Every change made here is written to the activity log (``activity``) as it is made.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import activity
from .context import SandboxContext
from .db import iso
from .errors import bad_request, conflict, not_found
from .worker import periodic

OPEN = "Open"
PENDING = "Pending"
CLOSED = "Closed"


def get_conversation(ctx: SandboxContext, conversation_id: int) -> Any:
    """The conversation row, or a 404."""
    row = ctx.db.one("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
    if row is None:
        raise not_found(f"Conversation {conversation_id}")
    return row


def require_agent(ctx: SandboxContext, user_id: str, role: str = "agent") -> Any:
    """The agent or admin row for ``user_id``; a 400 when it is not one (the contract's word)."""
    return _user_of_kind(ctx, user_id, "agent", "an agent or admin")


def require_enduser(ctx: SandboxContext, user_id: str) -> Any:
    """The end user row for ``user_id``; a 400 when it is not one (a reference in a body)."""
    return _user_of_kind(ctx, user_id, "enduser", "an end user")


def _user_of_kind(ctx: SandboxContext, user_id: str, kind: str, said: str) -> Any:
    row = ctx.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
    if row is None:
        raise bad_request(f"User {user_id} does not exist")
    if row["kind"] != kind:
        raise bad_request(f"User {user_id} is not {said}")
    return row


def require_queue(ctx: SandboxContext, queue_id: str) -> Any:
    """The queue row; a 400 when it does not exist (it is a reference in a body)."""
    row = ctx.db.one("SELECT * FROM queues WHERE id = ?", (queue_id,))
    if row is None:
        raise bad_request(f"Queue {queue_id} does not exist")
    return row


def default_queue_id(ctx: SandboxContext) -> str | None:
    """The organisation's default queue, if it has one."""
    row = ctx.db.one("SELECT id FROM queues WHERE is_default = 1 ORDER BY created_at LIMIT 1")
    return None if row is None else str(row["id"])


def _not_anonymized(row: Any) -> None:
    if row["type"] == "AnonymizedConversation":
        raise bad_request(f"Conversation {row['id']} is anonymized")


def _opened(ctx: SandboxContext, row: Any, by: str | None, now: str) -> str:
    """The state after an action that opens a Closed conversation (logged as reopened) and
    keeps any other."""
    if row["state"] != CLOSED:
        return str(row["state"])
    activity.record(ctx, row["id"], "ConversationReopened", author_id=by, at=now)
    return OPEN


def _closed_at(row: Any) -> str | None:
    """``closed_at`` after such an action: cleared when the conversation opens again."""
    return None if row["state"] == CLOSED else row["closed_at"]


def _set(ctx: SandboxContext, conversation_id: int, **columns: Any) -> None:
    if columns.get("queue_id") is not None:  # the queue it was in, kept when it leaves
        columns["last_queue_id"] = columns["queue_id"]
    names = ", ".join(f"{name} = ?" for name in columns)
    ctx.db.run(f"UPDATE conversations SET {names} WHERE id = ?",
               (*columns.values(), conversation_id))


def _state(ctx: SandboxContext, row: Any, state: str, now: str, **columns: Any) -> None:
    changes: dict[str, Any] = dict(columns)
    if row["state"] != state:
        changes["state"] = state
        changes["state_updated_at"] = now
    changes["last_activity_at"] = now
    _set(ctx, row["id"], **changes)


def enqueue_new(ctx: SandboxContext, queue_id: str | None, now: str) -> dict[str, Any]:
    """Columns of a new inbound conversation: Open, queued, unassigned."""
    queue_id = queue_id or default_queue_id(ctx)
    return {"state": OPEN, "state_updated_at": now, "queue_id": queue_id,
            "last_queue_id": queue_id, "queued_at": now if queue_id else None,
            "assigned_agent_id": None, "assigned_at": None}


def assign_new(agent_id: str, now: str) -> dict[str, Any]:
    """Columns of a new outbound conversation: Open, assigned to its author."""
    return {"state": OPEN, "state_updated_at": now, "queue_id": None, "queued_at": None,
            "assigned_agent_id": agent_id, "assigned_at": now}


def import_new(ctx: SandboxContext, *, assigned_to: str | None, assigned_at: str | None,
               closed_at: str | None, now: str) -> dict[str, Any]:
    """Columns of an imported conversation.

    With a closing it is Closed at ``closed_at`` (and keeps its assignment, if any); else it
    is Open, assigned when it carries an assignment, queued in the default queue when not.
    """
    columns: dict[str, Any] = {"assigned_agent_id": assigned_to, "assigned_at": assigned_at,
                               "queue_id": None, "queued_at": None}
    if closed_at is not None:
        return {**columns, "state": CLOSED, "state_updated_at": closed_at,
                "closed_at": closed_at}
    if assigned_to is not None:
        return {**columns, "state": OPEN, "state_updated_at": now}
    return enqueue_new(ctx, None, now)


def claim(ctx: SandboxContext, row: Any, agent_id: str, force: bool) -> None:
    """Assign to ``agent_id``; it leaves its queue. 409 when taken by another and not forced."""
    _not_anonymized(row)
    require_agent(ctx, agent_id)
    current = row["assigned_agent_id"]
    if current == agent_id:
        return
    if current is not None and not force:
        raise conflict(f"Conversation {row['id']} is already assigned to another agent; "
                       "claim with force to take it over")
    now = ctx.now_iso()
    _state(ctx, row, _opened(ctx, row, agent_id, now), now, assigned_agent_id=agent_id,
           assigned_at=now, queue_id=None, queued_at=None, closed_at=_closed_at(row))
    taken_from = activity.person(ctx, current) if current is not None else None
    activity.record(ctx, row["id"], "ConversationClaimed", author_id=agent_id, at=now,
                    claimedFromType="Agent" if taken_from else None,
                    claimedFromLabel=(taken_from or {}).get("name"))


def transfer(ctx: SandboxContext, row: Any, queue_id: str, user_id: str | None) -> None:
    """Unassign and queue in ``queue_id`` from now."""
    _not_anonymized(row)
    queue = require_queue(ctx, queue_id)
    if user_id is not None:
        require_agent(ctx, user_id)
    now = ctx.now_iso()
    _state(ctx, row, _opened(ctx, row, user_id, now), now, assigned_agent_id=None,
           assigned_at=None, queue_id=queue_id, queued_at=now, closed_at=_closed_at(row))
    activity.record(ctx, row["id"], "TransferSuccessful", author_id=user_id, at=now,
                    transferType="Queue", destinationType="Queue", destinationId=queue_id,
                    destinationLabel=queue["name"])


def followup(ctx: SandboxContext, row: Any, until: datetime, user_id: str | None) -> None:
    """Pending until ``until`` (which must be in the future), then Open again."""
    _not_anonymized(row)
    if user_id is not None:
        require_agent(ctx, user_id)
    if until <= ctx.clock.now():
        raise bad_request("Invalid value in request: timestamp must be in the future")
    if row["state"] == CLOSED:
        raise bad_request(f"Conversation {row['id']} is closed; reopen it first")
    now = ctx.now_iso()
    _state(ctx, row, PENDING, now, followup_until=iso(until))
    activity.record(ctx, row["id"], "FollowupAdded", author_id=user_id, at=now)


def close(ctx: SandboxContext, row: Any, user_id: str | None) -> None:
    """Closed; it leaves its queue (closing a closed conversation is harmless)."""
    if user_id is not None:
        require_agent(ctx, user_id)
    if row["state"] == CLOSED:
        return
    now = ctx.now_iso()
    _state(ctx, row, CLOSED, now, queue_id=None, queued_at=None, followup_until=None,
           closed_at=now)
    activity.record(ctx, row["id"], "ConversationClosed", author_id=user_id, at=now)
    if row["queue_id"] is not None and row["assigned_agent_id"] is None:
        # it ended while it waited in a queue, nobody having answered: abandoned
        activity.abandoned(ctx, row["id"], user_id, now, row["queue_id"])


def _reopen(ctx: SandboxContext, row: Any, now: str, by: str | None) -> None:
    """Closed → Open, unassigned, queued in the queue it still names or the default one."""
    queue_id = row["queue_id"] or default_queue_id(ctx)
    _state(ctx, row, OPEN, now, queue_id=queue_id, queued_at=now if queue_id else None,
           assigned_agent_id=None, assigned_at=None, followup_until=None, closed_at=None)
    activity.record(ctx, row["id"], "ConversationReopened", author_id=by, at=now)


def reopen(ctx: SandboxContext, row: Any, user_id: str | None) -> None:
    """Open again: a Closed one unassigned and queued (see ``_reopen``); a Pending one at
    once, its follow-up ended and its assignment kept (what its follow-up time would do); an
    Open one stays as it is."""
    _not_anonymized(row)
    if user_id is not None:
        require_agent(ctx, user_id)
    if row["state"] == CLOSED:
        _reopen(ctx, row, ctx.now_iso(), user_id)
    elif row["state"] in (PENDING, "AwaitingPending"):
        now = ctx.now_iso()
        _state(ctx, row, OPEN, now, followup_until=None)
        activity.record(ctx, row["id"], "FollowupRemoved", author_id=user_id, at=now)


def on_inbound_message(ctx: SandboxContext, row: Any) -> None:
    """A customer wrote: a Closed conversation reopens (queued), a Pending one opens."""
    now = ctx.now_iso()
    if row["state"] == CLOSED:
        _reopen(ctx, row, now, row["requester_id"])
    elif row["state"] in (PENDING, "AwaitingPending"):
        _state(ctx, row, OPEN, now, followup_until=None)
        activity.record(ctx, row["id"], "FollowupRemoved", author_id=row["requester_id"],
                        at=now)
    else:
        _set(ctx, row["id"], last_activity_at=now)


def on_outbound_message(ctx: SandboxContext, row: Any) -> None:
    """An agent wrote: only the activity time moves."""
    _set(ctx, row["id"], last_activity_at=ctx.now_iso())


@periodic
def expire_followups(ctx: SandboxContext) -> int:
    """Pending conversations whose follow-up time has come are Open again."""
    now = ctx.now_iso()
    due = ctx.db.all("SELECT id FROM conversations WHERE state = 'Pending' "
                     "AND followup_until <= ?", (now,))
    if not due:
        return 0
    ctx.db.run(
        "UPDATE conversations SET state = 'Open', state_updated_at = ?, followup_until = NULL, "
        "last_activity_at = ? WHERE state = 'Pending' AND followup_until <= ?",
        (now, now, now),
    )
    for row in due:
        activity.record(ctx, int(row["id"]), "FollowupExpired", at=now)
    return len(due)
