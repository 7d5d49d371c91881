"""What a reply must be before it is queued, and its local files read into ``data:`` URLs.

The channel's rules (WhatsApp: Markdown, at most one attachment of the allowed kinds; phone,
callback and voicemail conversations take no messages) are checked with the contract's own
functions, so a refusal says why before anything is queued. Reading an attached file is I/O:
:mod:`.compose` does it off the UI thread.
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import Final

from pydantic import ValidationError

from ..api.models import (
    Conversation,
    OutboundMessageInput,
    sms_problem,
    whatsapp_problem,
)
from ..channels import SILENT_CHANNELS as NO_MESSAGE_CHANNELS
from ..channels import channel_name
from ..text import one_line

__all__ = [
    "EMAIL_CHANNELS",
    "MAX_FILE_BYTES",
    "MAX_URL_CHARS",
    "SILENT_CHANNELS",
    "AttachmentError",
    "blocked_reason",
    "forced_content_type",
    "materialize",
    "reply_problem",
]

#: The largest local file attached as a ``data:`` URL. Base64 grows a file by a third and the
#: contract caps an attachment URL at 5,000,000 characters, so 3.5 MB is what fits.
MAX_FILE_BYTES: Final = 3_500_000
#: What the contract allows in an attachment URL (``FileInput.url``).
MAX_URL_CHARS: Final = 5_000_000
#: Channels whose conversations take no messages, and how people call them.
SILENT_CHANNELS: Final[dict[str, str]] = {
    channel: channel_name(channel) or channel for channel in sorted(NO_MESSAGE_CHANNELS)
}
#: Channels whose replies are emails (a recipient and a subject).
EMAIL_CHANNELS: Final = frozenset({"Email", "ContactForm"})
#: Stands in for my agent id when a reply is checked against the contract before sending.
_ANY_AGENT: Final = "00000000-0000-4000-8000-000000000000"


class AttachmentError(Exception):
    """A local file cannot be attached (gone, unreadable, too large); the message says why."""


# --------------------------------------------------------------------------- rules


def is_anonymized(conversation: Conversation | None) -> bool:
    """Whether the conversation was anonymized (it takes neither replies nor notes)."""
    return conversation is not None and (conversation.type == "AnonymizedConversation"
                                         or conversation.anonymized_at is not None)


def blocked_reason(conversation: Conversation | None) -> str | None:
    """Why this conversation cannot take a reply at all, or None when it can."""
    if conversation is None:
        return None
    if is_anonymized(conversation):
        return "This conversation is anonymized: it takes no more messages."
    channel = str(conversation.channel)
    name = SILENT_CHANNELS.get(channel)
    if name is not None:
        return f"{name} conversations cannot take messages: reply on another channel."
    return None


def forced_content_type(conversation: Conversation | None) -> str | None:
    """The content type a channel insists on (WhatsApp: Markdown), or None."""
    if conversation is not None and str(conversation.channel) == "WhatsApp":
        return "Markdown"
    return None


def _validation_text(error: ValidationError) -> str:
    errors = error.errors()
    if not errors:
        return "The reply cannot be sent: it does not fit the service's rules."
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"] if part != "value")
    what = str(first["msg"]).removeprefix("Value error, ")
    if "content" in where and "too_long" in first["type"]:
        return "The reply is too long: at most 100,000 characters."
    return f"The reply cannot be sent: {where + ' ' if where else ''}{what}"


def reply_problem(conversation: Conversation | None, text: str, content_type: str,
                  attachments: list[dict[str, str]]) -> str | None:
    """Why this reply cannot go to this conversation, or None when it can.

    Checks what the service would refuse, before anything is queued: an empty reply, a
    channel that takes no messages, the contract's shape (length, attachment URLs), and the
    WhatsApp and SMS rules through the contract's own ``whatsapp_problem``/``sms_problem``.
    """
    if not text.strip() and not attachments:
        return "Nothing to send: write a reply or attach a file (ctrl+a)."
    blocked = blocked_reason(conversation)
    if blocked is not None:
        return blocked
    try:
        message = OutboundMessageInput.model_validate({
            "_type": "Outbound",
            "agentId": _ANY_AGENT,
            "content": {"value": text, "_type": content_type} if text.strip() else None,
            "attachments": [{"url": a["url"], "prettyName": a.get("prettyName")}
                            for a in attachments] or None,
        })
    except ValidationError as error:
        return _validation_text(error)
    channel = str(conversation.channel) if conversation is not None else ""
    if channel == "WhatsApp":
        problem = whatsapp_problem(message)
    elif channel == "Sms":
        problem = sms_problem(message)
    else:
        problem = None
    return None if problem is None else f"{problem[0].upper()}{problem[1:]}."



def materialize(entry: dict[str, str]) -> dict[str, str]:
    """The attachment as the service takes it: a local file is read into a ``data:`` URL.

    Raises :class:`AttachmentError` when the file is gone, unreadable or has grown too large.
    """
    path_text = entry.get("path")
    if not path_text:
        out = {"url": entry.get("url", "")}
        if entry.get("prettyName"):
            out["prettyName"] = entry["prettyName"]
        return out
    path = Path(path_text)
    name = entry.get("prettyName") or path.name
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise AttachmentError(f"{one_line(name, 60)} cannot be read any more "
                              f"({error.strerror or error}): remove it (ctrl+a) or put it "
                              "back.") from error
    if len(data) > MAX_FILE_BYTES:
        raise AttachmentError(f"{one_line(name, 60)} has grown beyond "
                              f"{MAX_FILE_BYTES / 1_000_000:.1f} MB: share a link instead.")
    mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return {"url": url, "prettyName": name}
