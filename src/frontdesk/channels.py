"""How a channel is called on screen: one name per channel, on every screen.

The service names channels two ways — a conversation's channel (``WidgetChat``, ``Sms``,
``PstnPhone``…) and an agent's working channel (``InteractiveChat``, ``Messaging``…) — and
messages by their attributes' type (``ChatAttributes``…). People see one name for each:
a chat is "Chat" in the inbox, the thread, the presence toggles, the team and the header.

Pure standard library (the store's header text uses it too).
"""

from __future__ import annotations

from typing import Final

__all__ = ["BOT_CHANNELS", "CHANNEL_NAMES", "SILENT_CHANNELS", "channel_icon", "channel_name"]

#: the display name of every channel the service names, whichever way it names it
CHANNEL_NAMES: Final[dict[str, str]] = {
    # conversation channels
    "Email": "Email",
    "WidgetChat": "Chat",
    "WhatsApp": "WhatsApp",
    "Sms": "SMS",
    "PstnPhone": "Phone",
    "Voicemail": "Voicemail",
    "Callback": "Callback",
    "ContactForm": "Form",
    "FacebookMessenger": "Facebook",
    "Twitter": "Twitter",
    "Messenger": "Messenger",
    # working channels (presence)
    "InteractiveChat": "Chat",
    "Messaging": "Messaging",
    "Speak": "Speak",
    # message attributes
    "ChatAttributes": "Chat",
    "EmailAttributes": "Email",
    "ContactFormAttributes": "Form",
    "SmsAttributes": "SMS",
    "WhatsAppAttributes": "WhatsApp",
    "PhoneAttributes": "Phone",
    # chat bots' channels (a queue's availability)
    "adachat": "Ada chat",
    "kindlychat": "Kindly chat",
    "digitalgeniuschat": "DigitalGenius chat",
}

#: the chat bots' channels: a queue's availability names them, a conversation never does (so
#: their names need not fit the inbox's channel column)
BOT_CHANNELS: Final = frozenset({"adachat", "kindlychat", "digitalgeniuschat"})

#: conversation channels whose conversations take no messages (calls, voicemail, …)
SILENT_CHANNELS: Final = frozenset({"PstnPhone", "Callback", "Voicemail", "Twitter"})

#: marks the inbox puts before the commonest channels (names stay within its 9-cell column)
_ICONS: Final[dict[str, str]] = {"Email": "✉", "Chat": "💬", "Phone": "☎"}


def channel_name(channel: str) -> str | None:
    """The display name of a channel the service names (None for one it does not: the
    caller shows that one cleaned)."""
    return CHANNEL_NAMES.get(channel)


def channel_icon(name: str) -> str:
    """A one-cell mark for a display name (``✉`` Email, ``💬`` Chat, ``☎`` voice), or ""."""
    return _ICONS.get(name, "")
