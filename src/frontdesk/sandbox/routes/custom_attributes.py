"""Sandbox routes: custom attribute definitions, and patching the values of end users
(``Contact`` attributes) and conversations (``Conversation`` attributes).

A patch is all or nothing: every entry is checked before anything is written.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from starlette.responses import Response

from ...api.models import (
    CustomAttributeDefinition,
    CustomAttributesPatch,
    CustomAttributeValue,
    Envelope,
)
from .. import activity, records, rules, shapes
from ..context import Ctx, SandboxContext, ok
from ..db import loads
from ..errors import bad_request, not_found
from ..params import ConversationIdPath, CustomAttributeIdPath, UserIdPath

router = APIRouter(tags=["custom attributes"])

MAX_TEXT = 10_000
MAX_PATCH = 200
PatchBody = Annotated[CustomAttributesPatch, Body(
    description="attribute id → text (Text), option-value path from the top (Select), "
    "or null to clear")]


def definition_shape(row: Any) -> dict[str, Any]:
    """A custom attribute definition (its input definition is stored in wire form)."""
    out: dict[str, Any] = {
        "id": row["id"], "entityType": row["entity_type"], "identifier": row["identifier"],
        "label": row["label"], "inputDefinition": loads(row["input_definition"]),
        "createdAt": shapes.zoned(row["created_at"]),
        "isRequired": bool(row["is_required"]), "isArchived": bool(row["is_archived"]),
        "isDeactivated": bool(row["is_deactivated"]),
    }
    if row["description"] is not None:
        out["description"] = row["description"]
    if row["updated_at"] is not None:
        out["updatedAt"] = row["updated_at"]
    return out


def get_enduser(ctx: SandboxContext, user_id: str) -> Any:
    """The end user's row, or a 404 (an agent's id is not an end user's)."""
    row = ctx.db.one("SELECT * FROM users WHERE id = ? AND kind = 'enduser'",
                     (user_id.lower(),))
    if row is None:
        raise not_found(f"End user {user_id}")
    return row


@router.get("/v1/custom-attributes", response_model=Envelope[list[CustomAttributeDefinition]],
            summary="List custom attribute definitions")
async def list_definitions(ctx: Ctx) -> Response:
    """Every definition, of end users (Contact) and of conversations."""
    rows = ctx.db.all("SELECT * FROM custom_attribute_definitions "
                      "ORDER BY entity_type, position, identifier")
    return ok([definition_shape(r) for r in rows])


@router.get("/v1/custom-attributes/{customAttributeId}",
            response_model=Envelope[CustomAttributeDefinition],
            summary="Get a custom attribute definition",
            responses={404: {"description": "No such custom attribute"}})
async def read_definition(ctx: Ctx, attribute_id: CustomAttributeIdPath) -> Response:
    """One definition."""
    row = ctx.db.one("SELECT * FROM custom_attribute_definitions WHERE id = ?",
                     (attribute_id.lower(),))
    if row is None:
        raise not_found(f"Custom attribute {attribute_id}")
    return ok(definition_shape(row))


def _select_problem(options: Any, path: list[str]) -> str | None:
    """Why ``path`` is not a chain of active options from the top level down, or None."""
    level = options if isinstance(options, list) else []
    for depth, value in enumerate(path):
        option = next((o for o in level if isinstance(o, dict) and o.get("value") == value),
                      None)
        if option is None:
            where = "a top-level option" if depth == 0 else f"an option under '{path[depth - 1]}'"
            return f"'{value}' is not {where}"
        if option.get("isDeactivated"):
            return f"option '{value}' is deactivated"
        level = option.get("nestedOptions") or []
    return None


def _checked(definition: Any, value: str | list[str] | None) -> str | list[str] | None:
    """``value`` for ``definition`` after the rules of its input kind (a 400 when broken)."""
    name = definition["identifier"]
    if definition["is_archived"] or definition["is_deactivated"]:
        state = "archived" if definition["is_archived"] else "deactivated"
        raise bad_request(f"Invalid value in request: custom attribute '{name}' is {state}")
    if value is None:
        return None
    spec = loads(definition["input_definition"]) or {}
    if spec.get("_type") == "Select":
        if not isinstance(value, list) or not value:
            raise bad_request(f"Invalid value in request: custom attribute '{name}' is a "
                              "Select: its value is a non-empty list of option values")
        problem = _select_problem(spec.get("options"), value)
        if problem:
            raise bad_request(f"Invalid value in request: custom attribute '{name}': {problem}")
        return value
    if not isinstance(value, str):
        raise bad_request(f"Invalid value in request: custom attribute '{name}' is a Text: "
                          "its value is a string")
    if len(value) > MAX_TEXT:
        raise bad_request(f"Invalid value in request: custom attribute '{name}' is longer than "
                          f"{MAX_TEXT} characters")
    return value


def apply_patch(ctx: SandboxContext, entity_type: str, entity_id: str,
                patch: dict[str, str | list[str] | None]) -> list[dict[str, Any]]:
    """Check every entry, then write them all; the entity's values afterwards."""
    if len(patch) > MAX_PATCH:
        raise bad_request(f"Invalid value in request: at most {MAX_PATCH} attributes at once")
    changes: list[tuple[str, str | list[str] | None]] = []
    for raw_id, value in patch.items():
        attribute_id = raw_id.lower()
        definition = ctx.db.one("SELECT * FROM custom_attribute_definitions WHERE id = ?",
                                (attribute_id,))
        if definition is None:
            raise bad_request(f"Invalid value in request: custom attribute {raw_id} "
                              "does not exist")
        if definition["entity_type"] != entity_type:
            owner = "end users" if definition["entity_type"] == "Contact" else "conversations"
            raise bad_request(f"Invalid value in request: custom attribute "
                              f"'{definition['identifier']}' belongs to {owner}")
        changes.append((attribute_id, _checked(definition, value)))
    for attribute_id, checked in changes:
        records.set_attribute_value(ctx.db, entity_type=entity_type, entity_id=entity_id,
                                    attribute_id=attribute_id, value=checked)
    return shapes.custom_attribute_values(ctx, entity_type, entity_id)


@router.patch("/v1/conversations/{conversationId}/custom-attributes",
              response_model=Envelope[list[CustomAttributeValue]],
              summary="Patch custom attributes of a conversation",
              responses={404: {"description": "No such conversation"}})
async def patch_conversation(ctx: Ctx, conversation_id: ConversationIdPath,
                             body: PatchBody) -> Response:
    """Set or clear Conversation attributes; answers all of the conversation's values."""
    with ctx.db.tx():
        row = rules.get_conversation(ctx, conversation_id)
        if row["type"] == "AnonymizedConversation":
            raise bad_request(f"Conversation {conversation_id} is anonymized")
        values = apply_patch(ctx, "Conversation", str(conversation_id), body)
        activity.record(ctx, conversation_id, "ConversationCustomAttributesUpdated",
                        updatedAttributeIds=sorted(k.lower() for k in body),
                        updatedAttributeValues={k.lower(): v for k, v in body.items()})
    return ok(values)


@router.patch("/v1/endusers/{userId}/custom-attributes",
              response_model=Envelope[list[CustomAttributeValue]],
              summary="Patch custom attributes of an end user",
              responses={404: {"description": "No such end user"}})
async def patch_enduser(ctx: Ctx, user_id: UserIdPath, body: PatchBody) -> Response:
    """Set or clear Contact attributes; answers all of the end user's values."""
    with ctx.db.tx():
        row = get_enduser(ctx, user_id)
        if row["anonymized_at"] is not None:
            raise bad_request(f"End user {user_id} is anonymized")
        values = apply_patch(ctx, "Contact", row["id"], body)
    return ok(values)
