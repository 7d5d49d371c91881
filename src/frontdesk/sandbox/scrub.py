"""Anonymisation done for real: the ``anonymize`` job scrubs what a request names.

* a message: its content, attachments (stored copies deleted too), addresses and subject;
* a conversation: every message as above, the conversation's personal fields (subject,
  addresses, numbers, browser info), its custom attribute values and rating comments; it
  becomes an ``AnonymizedConversation`` (closed). Its end user is kept;
* an end user: personal fields nulled (display name "Anonymized user"), custom attribute
  values removed, and every conversation they requested anonymised as above.

The request's ``processed_at`` is set when done. Scrubbing twice is harmless.
"""

from __future__ import annotations

import re
from typing import Any

from . import activity, rules, worker
from .context import SandboxContext
from .db import dumps, loads

ANONYMIZED_TEXT = "[anonymized]"
ANONYMIZED_NAME = "Anonymized user"
ANONYMIZED_EMAIL = "anonymized@anonymized.invalid"

#: Message attribute members kept as they are: flags, kinds and numbers, nothing personal.
_KEEP = frozenset({"_type", "direction", "isAutomated", "isAutoReply", "duration",
                   "utterance_start_ms", "utterance_end_ms"})
_STORED_FILE = re.compile(r"/files/([0-9a-fA-F-]{36})")

_USER_COLUMNS = ("email", "phone_number", "external_id", "first_name", "last_name",
                 "middle_names", "additional_emails", "additional_phone_numbers", "avatar_url")
_CONVERSATION_COLUMNS = ("subject", "to_email", "from_email", "integration_email",
                         "browser_info", "from_number", "to_number")


def scrub_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    """Message attributes with nothing personal left; required members keep their shape."""
    out: dict[str, Any] = {}
    for key, value in attributes.items():
        if key in _KEEP:
            out[key] = value
        elif key == "content" and isinstance(value, dict):
            out[key] = {"value": ANONYMIZED_TEXT, "_type": value.get("_type", "Text")}
        elif key == "emailContent":
            out[key] = {"_type": "Regular",
                        "content": {"value": ANONYMIZED_TEXT, "_type": "Text"}}
        elif key == "from":
            out[key] = {"email": ANONYMIZED_EMAIL} if isinstance(value, dict) else ""
        elif key in ("to", "recording") and isinstance(value, str):
            out[key] = ""
        elif key == "formSubmission":
            out[key] = {"values": {}}
        elif isinstance(value, list):
            out[key] = []
        # anything else (subject, original content, failure reasons, …) is dropped
    return out


def _stored_files(attributes: Any) -> set[str]:
    """Ids of the sandbox's stored copies referred to anywhere in ``attributes``."""
    return {m.lower() for m in _STORED_FILE.findall(dumps(attributes))}


def scrub_message_row(ctx: SandboxContext, row: Any) -> None:
    """Scrub one message row (and delete the attachment copies it refers to)."""
    attributes = loads(row["attributes"]) or {}
    for file_id in _stored_files(attributes):
        ctx.db.run("DELETE FROM attachments WHERE id = ?", (file_id,))
    ctx.db.run("UPDATE messages SET attributes = ?, body_text = '' WHERE seq = ?",
               (dumps(scrub_attributes(attributes)), row["seq"]))
    files = attributes.get("attachments") if isinstance(attributes, dict) else None
    activity.record(ctx, int(row["conversation_id"]), "ConversationMessageRedacted",
                    messageId=row["id"], wasTextRedacted=True,
                    numberOfDeletedFiles=len(files) if isinstance(files, list) else 0)


def scrub_message(ctx: SandboxContext, conversation_id: int, message_id: str) -> None:
    """Scrub one message of a conversation (nothing happens when it is gone)."""
    row = ctx.db.one("SELECT * FROM messages WHERE id = ? AND conversation_id = ?",
                     (message_id, conversation_id))
    if row is not None:
        scrub_message_row(ctx, row)


def scrub_conversation(ctx: SandboxContext, conversation_id: int) -> None:
    """Scrub a conversation and all its messages; it ends closed and anonymised."""
    row = ctx.db.one("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
    if row is None:
        return
    rules.close(ctx, row, None)
    for message in ctx.db.all("SELECT * FROM messages WHERE conversation_id = ?",
                              (conversation_id,)):
        scrub_message_row(ctx, message)
    nulls = ", ".join(f"{column} = NULL" for column in _CONVERSATION_COLUMNS)
    ctx.db.run(f"UPDATE conversations SET type = 'AnonymizedConversation', "
               f"anonymized_at = COALESCE(anonymized_at, ?), {nulls} WHERE id = ?",
               (ctx.now_iso(), conversation_id))
    ctx.db.run("DELETE FROM custom_attribute_values WHERE entity_type = 'Conversation' "
               "AND entity_id = ?", (str(conversation_id),))
    ctx.db.run("UPDATE ratings SET comment = NULL WHERE conversation_id = ?",
               (conversation_id,))
    # what agents wrote about it goes too: notes, and the log's copies of text
    ctx.db.run("UPDATE notes SET message = '' WHERE conversation_id = ?", (conversation_id,))
    ctx.db.run("UPDATE activity_log SET attributes = CASE type "
               "WHEN 'NoteAdded' THEN '{\"message\":\"\"}' "
               "ELSE json_remove(attributes, '$.subject', '$.message') END "
               "WHERE conversation_id = ? AND attributes IS NOT NULL", (conversation_id,))


def scrub_user(ctx: SandboxContext, user_id: str) -> None:
    """Scrub an end user's personal fields, attribute values and conversations."""
    if ctx.db.one("SELECT 1 FROM users WHERE id = ?", (user_id,)) is None:
        return
    nulls = ", ".join(f"{column} = NULL" for column in _USER_COLUMNS)
    ctx.db.run(f"UPDATE users SET display_name = ?, anonymized_at = COALESCE(anonymized_at, ?), "
               f"{nulls} WHERE id = ?", (ANONYMIZED_NAME, ctx.now_iso(), user_id))
    ctx.db.run("DELETE FROM custom_attribute_values WHERE entity_type = 'Contact' "
               "AND entity_id = ?", (user_id,))
    for row in ctx.db.all("SELECT id FROM conversations WHERE requester_id = ?", (user_id,)):
        scrub_conversation(ctx, int(row["id"]))


@worker.job("anonymize")
def process(ctx: SandboxContext, payload: dict[str, Any]) -> None:
    """Do the anonymisation request ``payload["requestId"]`` and mark it processed."""
    request = ctx.db.one("SELECT * FROM anonymization_requests WHERE id = ?",
                         (payload["requestId"],))
    if request is None or request["processed_at"] is not None:
        return
    target = str(request["target_entity_id"])
    if request["type"] == "Conversation":
        scrub_conversation(ctx, int(target))
    elif request["type"] == "Message":
        csid, _, message_id = target.partition("_")
        scrub_message(ctx, int(csid), message_id)
    else:
        scrub_user(ctx, target)
    ctx.db.run("UPDATE anonymization_requests SET processed_at = ? WHERE id = ?",
               (ctx.now_iso(), request["id"]))
