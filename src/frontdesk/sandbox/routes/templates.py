"""Sandbox routes: templates — quick responses and email auto-replies (published beyond the
spec's tables). Listed oldest first, paged; deleting one is for good."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ...api.models import PagedEnvelope, Template, TemplateType
from ..context import Ctx, no_content, ok, page_limit
from ..db import loads
from ..errors import not_found
from ..params import uuid_path
from .endusers import PageKey, PageLimit, keyset_after, keyset_page

router = APIRouter(tags=["templates"])

TemplateIdPath = Annotated[str, uuid_path("templateId", "a template id")]


def template_shape(row: Any) -> dict[str, Any]:
    """A template, with its translations when it has any."""
    out: dict[str, Any] = {"id": row["id"], "name": row["name"], "content": row["content"],
                           "createdBy": row["created_by"], "createdAt": row["created_at"],
                           "_type": row["type"]}
    for column, key in (("last_edited_by", "lastEditedBy"), ("last_edited_at", "lastEditedAt"),
                        ("subject", "subject")):
        if row[column] is not None:
            out[key] = row[column]
    translations = loads(row["translations"])
    if translations:
        out["translations"] = translations
    return out


@router.get("/v1/templates", response_model=PagedEnvelope[Template], summary="List templates",
            responses={400: {"description": "An unknown type, or a bad page key"}})
async def list_templates(
    ctx: Ctx,
    request: Request,
    limit: PageLimit = None,
    key: PageKey = None,
    type: Annotated[TemplateType | None, Query(description="only this kind")] = None,
) -> Response:
    """The organisation's templates, oldest first (or those of one ``type``)."""
    size = page_limit(limit)
    where, params = ["1 = 1"], []
    if type is not None:
        where.append("type = ?")
        params.append(type.value)
    after = keyset_after(key)
    if after is not None:
        where.append("(created_at, id) > (?, ?)")
        params.extend(after)
    rows = ctx.db.all(f"SELECT * FROM templates WHERE {' AND '.join(where)} "
                      "ORDER BY created_at, id LIMIT ?", (*params, size + 1))
    page, meta = keyset_page(request, rows, size, "created_at")
    return ok([template_shape(r) for r in page], meta=meta)


@router.delete("/v1/templates/{templateId}", status_code=204, summary="Delete a template",
               responses={404: {"description": "No such template"}})
async def delete_template(ctx: Ctx, template_id: TemplateIdPath) -> Response:
    """Delete the template for good."""
    with ctx.db.tx():
        gone = ctx.db.run("DELETE FROM templates WHERE id = ?", (template_id.lower(),))
        if not gone.rowcount:
            raise not_found(f"Template {template_id}")
    return no_content()
