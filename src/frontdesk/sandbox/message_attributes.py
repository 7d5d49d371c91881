"""A new message's ``attributes`` in wire form, of the ``_type`` its conversation's uses: the
content and attachments, and for email and contact-form conversations the sender, the
recipients and the subject ("Re: …" on an agent's reply).
"""

from __future__ import annotations

from typing import Any

from ..api.models import reply_subject
from .context import SandboxContext
from .errors import bad_request

__all__ = ["ATTRIBUTE_TYPES", "EMAIL_LIKE", "build_attributes", "cc_contacts"]

#: The attributes ``_type`` of the messages of each conversation ``_type``.
ATTRIBUTE_TYPES: dict[str, str] = {
    "EmailConversation": "EmailAttributes",
    "ContactFormConversation": "ContactFormAttributes",
    "ChatConversation": "ChatAttributes",
    "MessengerConversation": "ChatAttributes",
    "SmsConversation": "SmsAttributes",
    "WhatsAppConversation": "WhatsAppAttributes",
    "FacebookMessengerConversation": "FacebookMessengerAttributes",
    "TwitterConversation": "TwitterAttributes",
    "GenericConversation": "GenericAttributes",
}
EMAIL_LIKE = ("EmailAttributes", "ContactFormAttributes")


def _contact(row: Any, fallback: str | None) -> dict[str, Any]:
    email = (row["email"] if row is not None else None) or fallback or ""
    out: dict[str, Any] = {"email": email}
    if row is not None and row["display_name"]:
        out["name"] = row["display_name"]
    return out


def cc_contacts(ctx: SandboxContext, user_ids: list[str] | None, what: str
                ) -> list[dict[str, Any]]:
    """The contacts of the users a message is copied to (``what``: "cc" or "bcc"); a 400
    when one does not exist or has no email address."""
    contacts: list[dict[str, Any]] = []
    for user_id in user_ids or []:
        row = ctx.db.one("SELECT * FROM users WHERE id = ?", (user_id,))
        if row is None:
            raise bad_request(f"User {user_id} in {what} does not exist")
        if not row["email"]:
            raise bad_request(f"User {user_id} in {what} has no email address")
        contacts.append(_contact(row, None))
    return contacts


def build_attributes(
    ctx: SandboxContext,
    conversation: Any,
    *,
    direction: str,
    content: dict[str, Any] | None,
    attachments: list[dict[str, Any]],
    author_id: str,
    integration_email: str | None = None,
    cc: list[dict[str, Any]] | None = None,
    bcc: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A message's ``attributes`` in wire form, of the ``_type`` its conversation's uses."""
    kind = ATTRIBUTE_TYPES.get(conversation["type"], "GenericAttributes")
    out: dict[str, Any] = {"_type": kind, "direction": direction}
    if kind not in EMAIL_LIKE:
        if content is not None:
            out["content"] = content
        out["attachments"] = attachments
        if kind == "ChatAttributes":
            out["isAutomated"] = False
        return out
    integration = (integration_email or conversation["integration_email"]
                   or conversation["to_email"] or "")
    requester = ctx.db.one("SELECT * FROM users WHERE id = ?", (conversation["requester_id"],))
    fallback = (conversation["from_email"] if conversation["direction"] != "Outbound"
                else conversation["to_email"])
    requester_contact = _contact(requester, fallback)
    if direction == "Inbound":
        author = (requester if author_id == conversation["requester_id"]
                  else ctx.db.one("SELECT * FROM users WHERE id = ?", (author_id,)))
        sender, recipients = _contact(author, fallback), [{"email": integration}]
    else:
        agent = ctx.db.one("SELECT * FROM users WHERE id = ?", (author_id,))
        sender = {"email": integration}
        if agent is not None and agent["display_name"]:
            sender["name"] = agent["display_name"]
        recipients = [requester_contact]
    out.update({
        "emailContent": {"_type": "Regular",
                         "content": content or {"value": "", "_type": "Text"}},
        "from": sender,
        "to": recipients,
        "cc": cc or [],
        "bcc": bcc or [],
        "isAutoReply": False,
        "attachments": attachments,
        "inlineImages": [],
    })
    if kind == "ContactFormAttributes" and direction == "Inbound" and sender["email"]:
        out["replyDefaultToEmails"] = [sender["email"]]
    if conversation["subject"]:
        # an agent's reply carries "Re: …"; the message that starts a conversation (and the
        # customer's) the conversation's subject
        replying = direction == "Outbound" and (
            conversation["direction"] != "Outbound" or ctx.db.one(
                "SELECT 1 FROM messages WHERE conversation_id = ? LIMIT 1",
                (conversation["id"],)) is not None)
        out["subject"] = (reply_subject(conversation["subject"]) if replying
                          else conversation["subject"])
    return out
