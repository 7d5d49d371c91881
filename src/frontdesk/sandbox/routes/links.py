"""Sandbox routes: linked conversations (published beyond the spec's tables).

A child names its parent in its ``link`` (``{parentId, _type}``). Published limits: at most
100 children per parent, one parent per child (linking again to the same parent changes the
link's type; to another parent is a 400), and a child has no children of its own — so a
conversation with children cannot become a child, and a child cannot become a parent. A
conversation is never its own parent; an unknown ``parentId`` is a 400 (a reference in a
body).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from ...api.models import Conversation, Envelope, LinkConversationInput
from .. import activity, rules, shapes
from ..context import Ctx, SandboxContext, no_content, ok
from ..db import dumps, loads
from ..errors import bad_request
from ..params import ConversationIdPath

router = APIRouter(tags=["links"])

MAX_CHILDREN = 100
#: children of a parent (through the ``conversations_parent`` index)
_OF_PARENT = "FROM conversations WHERE json_extract(link, '$.parentId') = ? AND link IS NOT NULL"
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such conversation"}}


def _count_children(ctx: SandboxContext, parent_id: int) -> int:
    row = ctx.db.one(f"SELECT COUNT(*) AS n {_OF_PARENT}", (parent_id,))
    return int(row["n"]) if row is not None else 0


@router.put("/v1/conversations/{conversationId}/link", status_code=204,
            summary="Link a conversation to a parent conversation",
            responses={**_NOT_FOUND, 400: {"description": "Unknown parent, or a published "
                                                          "limit broken"}})
async def link_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                            body: LinkConversationInput) -> Response:
    """Make the conversation a child of ``parentId`` with ``linkType``."""
    with ctx.db.tx():
        child = rules.get_conversation(ctx, conversation_id)
        parent_id = body.parent_id
        if parent_id == conversation_id:
            raise bad_request("Invalid value in request: a conversation cannot be its own "
                              "parent")
        parent = ctx.db.one("SELECT * FROM conversations WHERE id = ?", (parent_id,))
        if parent is None:
            raise bad_request(f"Conversation {parent_id} does not exist")
        current = loads(child["link"]) or {}
        if current.get("parentId") not in (None, parent_id):
            raise bad_request(f"Conversation {conversation_id} is already linked to "
                              f"conversation {current['parentId']}; a child has one parent")
        if loads(parent["link"]):
            raise bad_request(f"Conversation {parent_id} is itself a child; a child "
                              "conversation cannot have children")
        if _count_children(ctx, conversation_id):
            raise bad_request(f"Conversation {conversation_id} has children of its own and "
                              "cannot become a child")
        if current.get("parentId") is None and _count_children(ctx, parent_id) >= MAX_CHILDREN:
            raise bad_request(f"Conversation {parent_id} already has {MAX_CHILDREN} children")
        link = {"parentId": parent_id, "_type": body.link_type.value}
        ctx.db.run("UPDATE conversations SET link = ? WHERE id = ?",
                   (dumps(link), conversation_id))
        details: dict[str, Any] = {"child": conversation_id, "parent": parent_id,
                                   "linkType": body.link_type.value}
        activity.record(ctx, conversation_id, "ConversationLinkedToParent", **details)
        activity.record(ctx, parent_id, "ConversationLinkedFromChild", **details)
    return no_content()


@router.get("/v1/conversations/{conversationId}/linked",
            response_model=Envelope[list[Conversation]], summary="List linked conversations",
            responses=_NOT_FOUND)
async def linked_conversations(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """The conversation's children (side conversations, related ones), oldest first."""
    rules.get_conversation(ctx, conversation_id)
    rows = ctx.db.all(f"SELECT * {_OF_PARENT} ORDER BY id", (conversation_id,))
    return ok([shapes.conversation(ctx, r) for r in rows])
