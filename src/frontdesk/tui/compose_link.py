"""What a screen hosting a :class:`~frontdesk.tui.widgets.composer.Composer` does with its
messages: hand them to the store (:mod:`frontdesk.store.compose`) and answer the composer.

One function per message, so every host (the thread screen, a test's bare app) does the same.
They run in message handlers, outside any worker, where an exception would end the console:
each catches what fails at that boundary, keeps what was typed, logs it and says it in one
line (:func:`~frontdesk.tui.worker_failures.failure_said`). Sending runs in the host's
worker instead, so its failures reach the console's one handler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..store.compose import ComposeMode
from ..store.local import LocalStoreError
from .widgets.composer import Composer
from .worker_failures import failure_said

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from ..api.models import Conversation
    from ..store.errors import Refused
    from ..store.local import Draft
    from ..store.outbox import OutboxItem
    from ..store.session import Session

__all__ = ["SENDING_GROUP", "Start", "answered", "remember_content_type", "remember_mode",
           "save_draft", "save_now", "send", "start"]


#: The worker group of a host's :func:`send` (quitting waits for it: a reply being queued is
#: counted once it is in the outbox).
SENDING_GROUP = "composer-send"


class Start(NamedTuple):
    """What a composer opens with for one conversation."""

    draft: Draft | None
    content_type: str
    mode: ComposeMode


def start(session: Session, conversation_id: int, conversation: Conversation | None, *,
          host: Widget | App[Any]) -> Start:
    """The composer's starting state for a conversation, as the store has it: the draft,
    the channel's content type and the mode. A damaged store gives an empty composer (and
    ``host`` says why)."""
    compose = session.compose
    try:
        draft = compose.draft(conversation_id)
    except Exception as error:  # a boundary: a damaged store must not stop the thread opening
        host.notify(failure_said("read the draft", error), severity="error", markup=False)
        draft = None
    channel = str(conversation.channel) if conversation is not None else ""
    content_type = compose.content_type(channel) if channel else "Text"
    return Start(draft, content_type, compose.mode(conversation_id))


def save_draft(session: Session, event: Composer.DraftChanged) -> None:
    """Save the composer's content as the conversation's draft (one UPSERT, at once)."""
    try:
        session.compose.save_draft(event.conversation_id, event.text, event.attachments)
    except LocalStoreError as error:  # a full disk: the composer says it once, the text stays
        event.composer.draft_saved(error)
        return
    except Exception as error:  # a boundary: a bug must not lose what is being typed
        failure_said("save the draft", error)
        event.composer.draft_saved(error)
        return
    event.composer.draft_saved()


def save_now(session: Session, composer: Composer) -> None:
    """Save what the composer holds and has not posted yet, at once (before the screen
    goes away or moves to another conversation)."""
    change = composer.unsaved()
    if change is not None:
        save_draft(session, change)


def remember_content_type(session: Session, event: Composer.ContentTypeChosen, *,
                          host: Widget | App[Any]) -> None:
    """Keep the channel's Text/Markdown choice (``host`` says when it cannot)."""
    try:
        session.compose.remember_content_type(event.channel, event.content_type)
    except Exception as error:  # a boundary: the choice is only a convenience
        host.notify(failure_said("keep the choice of Text or Markdown", error),
                    severity="warning", markup=False)


def remember_mode(session: Session, event: Composer.ModeChanged, *,
                  host: Widget | App[Any]) -> None:
    """Keep whether the conversation's draft is a note (``host`` says when it cannot)."""
    try:
        session.compose.remember_mode(event.conversation_id, event.mode)
    except Exception as error:  # a boundary: the mode is only a convenience
        host.notify(failure_said("keep whether the draft is a note", error),
                    severity="warning", markup=False)


async def send(session: Session, event: Composer.SendRequested,
               conversation: Conversation | None) -> OutboxItem:
    """Hand the composer's reply or note to the store: the queued item (raises
    :class:`Refused` when it was not queued). A host awaits it in a worker and gives the
    answer to :func:`answered` from its message's handler."""
    return await session.compose.send(event.outgoing, conversation)


def answered(event: Composer.SendRequested, refusal: Refused | None) -> None:
    """Tell the composer what came of sending: queued (it empties) or refused (why, and the
    text stays)."""
    if refusal is not None:
        event.composer.refused(event.outgoing, refusal.reason)
    else:
        event.composer.sent(event.outgoing)
