"""The team gateway's own answers (``/gateway/v1/…``): its health, the member signed in with
a personal key, and the audit of what members did through it.

These are the gateway's, not the service's: the service's models describe what passes
through it unchanged.
"""

from __future__ import annotations

from pydantic import Field

from .common import Record, UtcDateTime


class GatewayHealth(Record):
    """Whether the gateway answers, and whether it reaches the service behind it."""

    status: str = Field(description="ok when the gateway itself works")
    upstream: str = Field(description="ok, or down when the service cannot be reached")
    webhooks: str | None = Field(default=None, description="with a public URL: heard, silent "
                                 "(the change feed polls), subscribing or failed")


class GatewayMember(Record):
    """Who a personal key belongs to: the member, the agent they act as, and their role."""

    member_id: str
    agent_id: str
    email: str
    name: str | None = None
    role: str = Field(description="agent, supervisor or admin")


class AuditEntry(Record):
    """One write a member sent through the gateway, and what came of it."""

    id: str
    at: UtcDateTime
    member_id: str
    email: str
    role: str
    operation: str = Field(description="the operation's name, as conversations.close")
    method: str
    path: str
    targets: list[str] = Field(default_factory=list,
                               description="the ids the request was about")
    status: int = Field(description="the HTTP status the member was answered with (0 while "
                                    "the service has not answered)")
    state: str | None = Field(default=None, description="done, refused, pending, failed "
                              "(nothing was done) or unknown (it may have been done)")


#: What a notice may say changed in its conversations (:attr:`ChangeNotice.what`).
CHANGED_RECORD = "record"
CHANGED_MESSAGES = "messages"
CHANGED_NOTES = "notes"
CHANGED_TAGS = "tags"
CHANGED_DELIVERY = "delivery"
CHANGED_RATING = "rating"


class ChangeNotice(Record):
    """One notice of the gateway's change stream: ``kind`` is ``hello`` (listening),
    ``conversations`` (these changed at the service) or ``reset`` (look at everything
    again); ``seq`` is what to give back as ``Last-Event-ID`` when listening again.
    ``what`` says what changed in the conversations when the gateway knows (a webhook's
    event: ``record``, ``messages``, ``notes``, ``tags``, ``delivery``, ``rating``); empty,
    anything may have (its poller finds conversations, not what changed in them)."""

    seq: int | None = None
    kind: str
    conversations: list[int] = Field(default_factory=list)
    what: list[str] = Field(default_factory=list)


__all__ = ["CHANGED_DELIVERY", "CHANGED_MESSAGES", "CHANGED_NOTES", "CHANGED_RATING",
           "CHANGED_RECORD", "CHANGED_TAGS", "AuditEntry", "ChangeNotice", "GatewayHealth",
           "GatewayMember"]
