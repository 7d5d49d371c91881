"""Which conversations' drafts are internal notes rather than replies, kept in the local store
beside the drafts, so a note written before a crash (or taken back out of the outbox) comes
back as a note, never as a reply to the customer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from .local_failures import LOCAL_FAILURES

if TYPE_CHECKING:
    from .local import LocalStore

__all__ = ["ComposeMode", "draft_mode", "set_draft_mode"]

ComposeMode = Literal["reply", "note"]

#: The local store's key of the conversations whose draft is an internal note.
MODES_SNAPSHOT: Final = "composer-modes"


def draft_mode(local: LocalStore, conversation_id: int) -> ComposeMode:
    """Whether the conversation's draft is a note or a reply (a reply unless kept)."""
    try:
        kept = local.snapshot(MODES_SNAPSHOT)
    except LOCAL_FAILURES:  # a damaged store: a reply, the composer shows it plainly
        return "reply"
    notes = kept if isinstance(kept, list) else []
    return "note" if conversation_id in notes else "reply"


def set_draft_mode(local: LocalStore, conversation_id: int, mode: ComposeMode) -> None:
    """Keep whether the conversation's draft is a note (raises when the store cannot)."""
    kept = local.snapshot(MODES_SNAPSHOT)
    notes = [n for n in kept if isinstance(n, int)] if isinstance(kept, list) else []
    if mode == "note" and conversation_id not in notes:
        notes.append(conversation_id)
    elif mode == "reply" and conversation_id in notes:
        notes.remove(conversation_id)
    else:
        return
    local.save_snapshot(MODES_SNAPSHOT, notes[-500:])
