"""Linked conversations as the console uses them: link the open conversation under a parent,
with the service's refusals raised as :class:`~frontdesk.store.errors.Refused` in one line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.errors import ApiError, NotFound
from ..api.models import LinkType
from ..text import one_line
from .errors import Refused

if TYPE_CHECKING:
    from .session import Session

__all__ = ["link_problem", "link_to_parent"]


def link_problem(conversation_id: int, parent_text: str) -> int | str:
    """The parent id typed, or why it cannot be one (said before asking the service)."""
    text = parent_text.strip().lstrip("#")
    if not text.isdigit() or int(text) <= 0:
        return "Type the parent conversation's number (e.g. 1234)."
    parent_id = int(text)
    if parent_id == conversation_id:
        return "A conversation cannot be linked to itself."
    return parent_id


async def link_to_parent(session: Session, conversation_id: int, parent_id: int,
                         link_type: LinkType = LinkType.SIDE_CONVERSATION) -> None:
    """Make ``conversation_id`` a child of ``parent_id``; raises :class:`Refused` (one line)
    when it is not done. The conversation's record and the thread's links are read again
    afterwards."""
    if parent_id == conversation_id:
        raise Refused("A conversation cannot be linked to itself.")
    client = session.client
    try:
        await client.links.link(conversation_id, parent_id, link_type)
    except NotFound as error:
        raise Refused(f"#{conversation_id} is no longer visible to you.", error=error) from error
    except ApiError as error:
        if await _missing(session, parent_id):
            raise Refused(f"There is no conversation #{parent_id}.", error=error) from error
        message = error.message or str(error)
        raise Refused(one_line(message.removeprefix("Invalid value in request: "), 160),
                      error=error) from error
    try:
        record = await client.conversations.get(conversation_id)
        session.inbox.upsert([record], "opened")
    except ApiError:
        session.inbox.want([conversation_id])
    session.threads.want_notes()
    session.live.poke("thread")


async def _missing(session: Session, conversation_id: int) -> bool:
    """Whether the service says there is no such conversation (a 404 when it is read),
    asked after it refused a link: a refusal's wording is not a fact to act on."""
    try:
        await session.client.conversations.get(conversation_id)
    except NotFound:
        return True
    except ApiError:
        return False
    return False
