"""Sandbox routes: end users (the customers), and the conversations each one requested.

End users and agents share the ``users`` table (``kind`` tells them apart), so the keyset
paging helpers used by every list of people live here too.

Uniqueness: an ``externalId`` names one end user (a second end user with the same one is a
400, as the contract says); an email address may be shared by several end users (the list's
``email`` filter answers a list, and the service does not say addresses are unique).

Updates (published beyond the spec's tables): PUT (one or in bulk) is a full update — the
optional fields it does not carry are cleared; PATCH changes only the fields it carries
(``null`` clears one; ``displayName`` cannot be cleared), and a patch that changes nothing is
refused. Bulk operations answer one outcome per item, in order (``NotFound``,
``Validation``, ``EmptyPatchSet``). An anonymized end user takes no update.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from ...api.models import (
    BulkActionOutcome,
    BulkCreateEndUsersInput,
    BulkPatchEndUsersInput,
    BulkUpdateEndUsersInput,
    Conversation,
    CreateEndUserInput,
    EndUser,
    Envelope,
    PagedEnvelope,
    PatchEndUserInput,
    UpdateEndUserInput,
)
from .. import records, shapes
from ..bulk import failure, outcome
from ..context import (
    MAX_PAGE_LIMIT,
    Ctx,
    SandboxContext,
    decode_page_key,
    encode_page_key,
    ok,
    page_limit,
    page_meta,
)
from ..errors import bad_request, not_found
from ..params import UserIdPath

router = APIRouter(tags=["endusers"])

_BAD_KEY = "Invalid value in request: pageKey is not a key this service made"

PageLimit = Annotated[int | None, Query(alias="pageLimit", ge=1, le=MAX_PAGE_LIMIT,
                                        description="items per page")]
PageKey = Annotated[str | None, Query(alias="pageKey", description="opaque key of the next page")]


# ---------------------------------------------------------------- keyset paging (shared)


def keyset_after(key: str | None) -> tuple[str, str] | None:
    """The (sort value, id) a page key points after, or None for the first page; 400 if bad."""
    position = decode_page_key(key)
    if position is None:
        return None
    after, last_id = position.get("a"), position.get("i")
    if not isinstance(after, str) or not isinstance(last_id, str):
        raise bad_request(_BAD_KEY)
    return after, last_id


def users_page(ctx: SandboxContext, request: Request, kind: str, limit: int | None,
               key: str | None, **equals: str | None) -> tuple[list[Any], dict[str, str] | None]:
    """One page of users of ``kind`` (oldest first), keeping those whose columns equal the
    given values (``email`` compared in any case); the rows and the page's ``meta``."""
    size = page_limit(limit)
    after = keyset_after(key)
    where = ["kind = ?"]
    params: list[Any] = [kind]
    for column, value in equals.items():
        if value is not None:
            where.append(f"{column} = ?" + (" COLLATE NOCASE" if column == "email" else ""))
            params.append(value)
    if after is not None:
        where.append("(created_at, id) > (?, ?)")
        params.extend(after)
    rows = ctx.db.all(
        f"SELECT * FROM users WHERE {' AND '.join(where)} ORDER BY created_at, id LIMIT ?",
        (*params, size + 1),
    )
    return keyset_page(request, rows, size, "created_at")


def keyset_page(request: Request, rows: list[Any], limit: int, sort_column: str,
                id_column: str = "id") -> tuple[list[Any], dict[str, str] | None]:
    """Cut ``limit + 1`` fetched rows to a page, with ``meta.next`` when there is more."""
    if len(rows) <= limit:
        return rows, None
    page = rows[:limit]
    last = page[-1]
    key = encode_page_key({"a": str(last[sort_column]), "i": str(last[id_column])})
    return page, page_meta(request, key, limit)


# ---------------------------------------------------------------- lookups


def get_enduser(ctx: SandboxContext, user_id: str) -> Any:
    """The end user's row, or a 404 (an agent's id is not an end user)."""
    row = ctx.db.one("SELECT * FROM users WHERE id = ? AND kind = 'enduser'", (user_id,))
    if row is None:
        raise not_found(f"End user {user_id}")
    return row


# ---------------------------------------------------------------- changes

#: Optional end-user fields, as columns (the lists stored as JSON by ``records.update_user``).
_OPTIONAL = ("email", "phone_number", "additional_emails", "additional_phone_numbers",
             "first_name", "last_name", "middle_names", "avatar_url", "external_id")


def _check_name(name: str | None) -> None:
    if name is None or not name.strip():
        raise bad_request("Invalid value in request: displayName must not be blank")


def _check_external_id(ctx: SandboxContext, external_id: str | None, user_id: str | None
                       ) -> None:
    if external_id is not None and ctx.db.one(
        "SELECT 1 FROM users WHERE external_id = ? AND kind = 'enduser' AND id IS NOT ?",
        (external_id, user_id),
    ):
        raise bad_request(f"An end user with externalId '{external_id}' already exists")


def create_enduser_row(ctx: SandboxContext, body: CreateEndUserInput) -> Any:
    """A new end user; a 400 for a blank name or an ``externalId`` already taken."""
    if body.display_name is not None:
        _check_name(body.display_name)
    _check_external_id(ctx, body.external_id, None)
    user_id = records.insert_user(
        ctx.db, kind="enduser", created_at=ctx.now_iso(), id=ctx.new_id(),
        **body.model_dump(exclude_none=True, by_alias=False),
    )
    return get_enduser(ctx, user_id)


def _changeable(ctx: SandboxContext, user_id: str) -> Any:
    row = get_enduser(ctx, user_id)
    if row["anonymized_at"] is not None:
        raise bad_request(f"End user {user_id} is anonymized and cannot be changed")
    return row


def _write(ctx: SandboxContext, user_id: str, changes: dict[str, Any]) -> Any:
    """Store ``changes`` (column → value) and answer the end user's new row."""
    if "display_name" in changes:
        _check_name(changes["display_name"])
    _check_external_id(ctx, changes.get("external_id"), user_id)
    records.update_user(ctx.db, user_id, changes)
    return get_enduser(ctx, user_id)


def replace_enduser(ctx: SandboxContext, user_id: str, body: UpdateEndUserInput) -> Any:
    """A full update: the optional fields not given are cleared."""
    _changeable(ctx, user_id)
    changes: dict[str, Any] = {"display_name": body.display_name}
    changes.update({field: getattr(body, field) for field in _OPTIONAL})
    return _write(ctx, user_id, changes)


def patch_enduser(ctx: SandboxContext, user_id: str, body: PatchEndUserInput) -> Any:
    """Change the fields the patch carries; a 400 when it carries none."""
    _changeable(ctx, user_id)
    changes = {f: getattr(body, f) for f in body.model_fields_set
               if f == "display_name" or f in _OPTIONAL}
    if not changes:
        raise bad_request("Invalid value in request: the patch changes nothing")
    return _write(ctx, user_id, changes)


def _shape(ctx: SandboxContext) -> Any:
    return partial(shapes.enduser, ctx)


# ---------------------------------------------------------------- routes


@router.get("/v1/endusers", response_model=PagedEnvelope[EndUser], summary="List end users",
            responses={400: {"description": "More than one filter, or a bad page key"}})
async def list_endusers(
    ctx: Ctx,
    request: Request,
    limit: PageLimit = None,
    key: PageKey = None,
    email: Annotated[str | None, Query(description="exact address, any case")] = None,
    phone: Annotated[str | None, Query(description="exact phone number")] = None,
    external_id: Annotated[str | None, Query(alias="externalId")] = None,
) -> Response:
    """End users, oldest first; at most one of the filters (items omit custom attributes)."""
    filters = [f for f in (email, phone, external_id) if f is not None]
    if len(filters) > 1:
        raise bad_request("Cannot provide more than one filter")
    page, meta = users_page(ctx, request, "enduser", limit, key, email=email,
                            phone_number=phone, external_id=external_id)
    return ok([shapes.enduser(ctx, r, custom_attributes=False) for r in page], meta=meta)


@router.post("/v1/endusers", response_model=Envelope[EndUser], summary="Create an end user",
             responses={400: {"description": "Invalid body, or the externalId is taken"}})
async def create_enduser(ctx: Ctx, body: CreateEndUserInput) -> Response:
    """Create an end user; an ``externalId`` already used by another end user is refused."""
    with ctx.db.tx():
        row = create_enduser_row(ctx, body)
    return ok(shapes.enduser(ctx, row))


@router.put("/v1/endusers", response_model=Envelope[list[BulkActionOutcome[EndUser]]],
            summary="Update end users in bulk (full update)")
async def bulk_update_endusers(ctx: Ctx, body: BulkUpdateEndUsersInput) -> Response:
    """A full update per item; an unknown id fails alone with ``NotFound``."""
    with ctx.db.tx():
        outcomes = [outcome(item.id, "End user", partial(replace_enduser, ctx, item.id, item),
                            _shape(ctx)) for item in body.data]
    return ok(outcomes)


@router.patch("/v1/endusers", response_model=Envelope[list[BulkActionOutcome[EndUser]]],
              summary="Patch end users in bulk")
async def bulk_patch_endusers(ctx: Ctx, body: BulkPatchEndUsersInput) -> Response:
    """A partial update per item; an item that changes nothing fails with ``EmptyPatchSet``."""
    outcomes: list[dict[str, Any]] = []
    with ctx.db.tx():
        for item in body.data:
            if not ({f for f in item.model_fields_set if f != "id"}):
                outcomes.append(failure("EmptyPatchSet", "Nothing to change", item.id))
                continue
            outcomes.append(outcome(item.id, "End user",
                                    partial(patch_enduser, ctx, item.id, item), _shape(ctx)))
    return ok(outcomes)


@router.post("/v1/endusers/bulk", response_model=Envelope[list[BulkActionOutcome[EndUser]]],
             summary="Create end users in bulk")
async def bulk_create_endusers(ctx: Ctx, body: BulkCreateEndUsersInput) -> Response:
    """Create each end user; a taken ``externalId`` fails alone with ``Validation`` (also
    between the items of one request)."""
    with ctx.db.tx():
        outcomes = [outcome(None, "End user", partial(create_enduser_row, ctx, item),
                            _shape(ctx)) for item in body.data]
    return ok(outcomes)


@router.get("/v1/endusers/{userId}", response_model=Envelope[EndUser], summary="Get an end user",
            responses={404: {"description": "No such end user"}})
async def read_enduser(ctx: Ctx, user_id: UserIdPath) -> Response:
    """One end user, with custom attributes."""
    return ok(shapes.enduser(ctx, get_enduser(ctx, user_id)))


@router.put("/v1/endusers/{userId}", response_model=Envelope[EndUser],
            summary="Update an end user (full update)",
            responses={404: {"description": "No such end user"}})
async def update_enduser(ctx: Ctx, user_id: UserIdPath, body: UpdateEndUserInput) -> Response:
    """A full update: optional fields not given are cleared."""
    with ctx.db.tx():
        row = replace_enduser(ctx, user_id, body)
    return ok(shapes.enduser(ctx, row))


@router.patch("/v1/endusers/{userId}", response_model=Envelope[EndUser],
              summary="Patch an end user", responses={404: {"description": "No such end user"}})
async def patch_one_enduser(ctx: Ctx, user_id: UserIdPath, body: PatchEndUserInput
                            ) -> Response:
    """Change only the fields given (``null`` clears one); a patch of nothing is a 400."""
    with ctx.db.tx():
        row = patch_enduser(ctx, user_id, body)
    return ok(shapes.enduser(ctx, row))


@router.get("/v1/endusers/{userId}/conversations", response_model=PagedEnvelope[Conversation],
            summary="Conversations requested by an end user",
            responses={404: {"description": "No such end user"}})
async def enduser_conversations(
    ctx: Ctx,
    request: Request,
    user_id: UserIdPath,
    limit: PageLimit = None,
    key: PageKey = None,
) -> Response:
    """The end user's conversations, newest first, without custom attributes."""
    get_enduser(ctx, user_id)
    size = page_limit(limit)
    position = decode_page_key(key)
    where = "requester_id = ?"
    params: list[Any] = [user_id]
    if position is not None:
        after, last_id = position.get("a"), position.get("i")
        if not isinstance(after, str) or not isinstance(last_id, int):
            raise bad_request(_BAD_KEY)
        where += " AND (created_at, id) < (?, ?)"
        params.extend((after, last_id))
    rows = ctx.db.all(
        f"SELECT * FROM conversations WHERE {where} ORDER BY created_at DESC, id DESC LIMIT ?",
        (*params, size + 1),
    )
    meta = None
    if len(rows) > size:
        rows = rows[:size]
        last = rows[-1]
        meta = page_meta(request, encode_page_key({"a": last["created_at"], "i": last["id"]}),
                         size)
    return ok([shapes.conversation(ctx, r, custom_attributes=False) for r in rows], meta=meta)
