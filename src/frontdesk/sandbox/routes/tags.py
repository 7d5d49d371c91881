"""Sandbox routes: tags, and tagging conversations."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.responses import Response

from ...api.models import BulkTagInput, CreateTagInput, Envelope, Tag
from .. import activity, rules, shapes, worker
from ..context import Ctx, SandboxContext, accepted, no_content, ok
from ..db import iso
from ..errors import bad_request, not_found
from ..params import ConversationIdPath, TagIdPath

router = APIRouter(tags=["tags"])



def get_tag(ctx: SandboxContext, tag_id: str) -> Any:
    """The tag row, or a 404."""
    row = ctx.db.one("SELECT * FROM tags WHERE id = ?", (tag_id,))
    if row is None:
        raise not_found(f"Tag {tag_id}")
    return row


def create_or_get(ctx: SandboxContext, name: str, color: str | None = None) -> Any:
    """The tag named ``name`` (case-insensitive), created when it does not exist."""
    row = ctx.db.one("SELECT * FROM tags WHERE name = ? COLLATE NOCASE", (name,))
    if row is not None:
        return row
    tag_id = ctx.new_id()
    ctx.db.run(
        "INSERT INTO tags (id, name, color, state, created_at) VALUES (?, ?, ?, 'Active', ?)",
        (tag_id, name, color, ctx.now_iso()),
    )
    return ctx.db.one("SELECT * FROM tags WHERE id = ?", (tag_id,))


@router.get("/v1/tags", response_model=Envelope[list[Tag]], summary="List tags")
async def list_tags(ctx: Ctx, include_deactivated: Annotated[
        bool, Query(alias="includeDeactivated")] = False) -> Response:
    """Active tags, and deactivated ones with ``includeDeactivated=true``."""
    sql = "SELECT * FROM tags" + ("" if include_deactivated else " WHERE state = 'Active'")
    return ok([shapes.tag(r) for r in ctx.db.all(sql + " ORDER BY name COLLATE NOCASE")])


@router.post("/v1/tags", response_model=Envelope[Tag], summary="Create a tag")
async def create_tag(ctx: Ctx, body: CreateTagInput) -> Response:
    """Create a tag; a name that exists returns the existing tag unchanged."""
    name = body.name.strip()
    if not name:
        raise bad_request("Invalid value in request: name must not be blank")
    with ctx.db.tx():
        row = create_or_get(ctx, name, body.color)
    return ok(shapes.tag(row))


@router.get("/v1/tags/{tagId}", response_model=Envelope[Tag], summary="Get a tag",
            responses={404: {"description": "No such tag"}})
async def read_tag(ctx: Ctx, tag_id: TagIdPath) -> Response:
    """One tag."""
    return ok(shapes.tag(get_tag(ctx, tag_id)))


@router.delete("/v1/tags/{tagId}", status_code=204, summary="Delete a tag",
               responses={404: {"description": "No such tag"}})
async def delete_tag(ctx: Ctx, tag_id: TagIdPath) -> Response:
    """Delete a tag and every association with it; irreversible."""
    with ctx.db.tx():
        get_tag(ctx, tag_id)
        ctx.db.run("DELETE FROM tags WHERE id = ?", (tag_id,))
    return no_content()


def _set_state(ctx: SandboxContext, tag_id: str, state: str) -> Response:
    with ctx.db.tx():
        get_tag(ctx, tag_id)
        ctx.db.run("UPDATE tags SET state = ? WHERE id = ?", (state, tag_id))
    return no_content()


@router.patch("/v1/tags/{tagId}/deactivate", status_code=204, summary="Deactivate a tag",
              responses={404: {"description": "No such tag"}})
async def deactivate_tag(ctx: Ctx, tag_id: TagIdPath) -> Response:
    """An inactive tag can no longer be applied, but can still be removed."""
    return _set_state(ctx, tag_id, "Inactive")


@router.patch("/v1/tags/{tagId}/activate", status_code=204, summary="Activate a tag",
              responses={404: {"description": "No such tag"}})
async def activate_tag(ctx: Ctx, tag_id: TagIdPath) -> Response:
    """Make a tag applicable again."""
    return _set_state(ctx, tag_id, "Active")


@router.get("/v1/conversations/{conversationId}/tags", response_model=Envelope[list[Tag]],
            summary="Tags of a conversation",
            responses={404: {"description": "No such conversation"}})
async def conversation_tags(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """The tags applied to a conversation."""
    rules.get_conversation(ctx, conversation_id)
    rows = ctx.db.all(
        "SELECT t.* FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
        "WHERE ct.conversation_id = ? ORDER BY t.name COLLATE NOCASE",
        (conversation_id,),
    )
    return ok([shapes.tag(r) for r in rows])


@router.put("/v1/conversations/{conversationId}/tags/{tagId}", status_code=204,
            summary="Tag a conversation",
            responses={404: {"description": "No such conversation or tag"}})
async def tag_conversation(
    ctx: Ctx,
    conversation_id: ConversationIdPath,
    tag_id: TagIdPath,
) -> Response:
    """Apply an active tag (applying it twice is harmless)."""
    with ctx.db.tx():
        rules.get_conversation(ctx, conversation_id)
        tag = get_tag(ctx, tag_id)
        if tag["state"] != "Active":
            raise bad_request(f"Tag '{tag['name']}' is deactivated and cannot be applied")
        _tag(ctx, conversation_id, tag)
    return no_content()


@router.delete("/v1/conversations/{conversationId}/tags/{tagId}", status_code=204,
               summary="Untag a conversation",
               responses={404: {"description": "No such conversation or tag"}})
async def untag_conversation(
    ctx: Ctx,
    conversation_id: ConversationIdPath,
    tag_id: TagIdPath,
) -> Response:
    """Remove a tag, active or not (removing one that is not there is harmless)."""
    with ctx.db.tx():
        rules.get_conversation(ctx, conversation_id)
        tag = get_tag(ctx, tag_id)
        removed = ctx.db.run(
            "DELETE FROM conversation_tags WHERE conversation_id = ? AND tag_id = ?",
            (conversation_id, tag_id),
        )
        if removed.rowcount:
            activity.record(ctx, conversation_id, "TagRemoved", tag=tag["name"])
    return no_content()


@router.post("/v1/conversations/{conversationId}/tags/bulk", status_code=202,
             summary="Tag a conversation by names, asynchronously",
             responses={404: {"description": "No such conversation"}})
async def bulk_tag(
    ctx: Ctx,
    conversation_id: ConversationIdPath,
    body: BulkTagInput,
) -> Response:
    """Queue the tagging; names that do not exist are created when it is done."""
    names = [item.name.strip() for item in body.data]
    if any(not name for name in names):
        raise bad_request("Invalid value in request: tag names must not be blank")
    with ctx.db.tx():
        rules.get_conversation(ctx, conversation_id)
        worker.enqueue(ctx, "bulk_tag", {"conversationId": conversation_id, "names": names})
    return accepted()


@worker.job("bulk_tag")
def _apply_bulk_tag(ctx: SandboxContext, payload: dict[str, Any]) -> None:
    conversation_id = int(payload["conversationId"])
    if ctx.db.one("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)) is None:
        return
    for name in payload["names"]:
        tag = create_or_get(ctx, name)
        if tag["state"] != "Active":
            continue
        _tag(ctx, conversation_id, tag)


def _tag(ctx: SandboxContext, conversation_id: int, tag: Any) -> None:
    """Apply ``tag``; a tag newly applied is written to the activity log."""
    added = ctx.db.run(
        "INSERT OR IGNORE INTO conversation_tags (conversation_id, tag_id, tagged_at) "
        "VALUES (?, ?, ?)",
        (conversation_id, tag["id"], iso(ctx.clock.now())),
    )
    if added.rowcount:
        activity.record(ctx, conversation_id, "TagAdded", tag=tag["name"])
