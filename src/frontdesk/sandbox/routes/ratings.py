"""Sandbox routes: rating offers, submitted ratings, and a conversation's rating statuses.

An offer is ``Offered`` until it is answered, then ``Rated``. An offer is answered once:
submitting it again is a 409 (the first answer stands), so a retried submit cannot silently
change a customer's score.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from ...api.models import (
    ConversationRating,
    Envelope,
    RatingOffer,
    RatingOfferInput,
    RatingResult,
    SubmittedRatingResult,
)
from .. import activity, rules
from ..context import Ctx, SandboxContext, ok
from ..db import iso
from ..errors import bad_request, conflict, not_found
from ..params import ConversationIdPath, RatingIdPath

router = APIRouter(tags=["ratings"])

NO_CONVERSATION: dict[int | str, dict[str, Any]] = {404: {"description": "No such conversation"}}


def _put(out: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def offer_shape(row: Any) -> dict[str, Any]:
    """A rating offer (``agentId`` is always there: the published offer requires it)."""
    return {"id": row["id"], "userId": row["user_id"], "agentId": row["agent_id"],
            "ratingType": row["rating_type"], "offeredAt": row["offered_at"]}


def _rated_agent(ctx: SandboxContext, conversation: Any) -> str:
    """The agent an offer is about when none is named: "the agent most likely to be the
    target" (published) — the assignee, else the last agent who wrote in the conversation,
    else the admin the API key acts for."""
    if conversation["assigned_agent_id"] is not None:
        return str(conversation["assigned_agent_id"])
    row = ctx.db.one(
        "SELECT m.author_id FROM messages m JOIN users u ON u.id = m.author_id "
        "WHERE m.conversation_id = ? AND m.direction = 'Outbound' AND u.kind = 'agent' "
        "ORDER BY m.seq DESC LIMIT 1", (conversation["id"],))
    return ctx.api_user_id if row is None else str(row["author_id"])


def result_shape(row: Any) -> dict[str, Any]:
    """A submitted rating."""
    out: dict[str, Any] = {
        "ratingId": row["id"], "userId": row["user_id"],
        "ratingResult": {"_type": row["rating_type"], "value": row["score"]},
    }
    _put(out, "comment", row["comment"])
    _put(out, "submittedAt", row["submitted_at"])
    return out


def status_shape(row: Any, channel: str) -> dict[str, Any]:
    """The status of one rating of a conversation."""
    timestamps = {"offered_at": row["offered_at"]}
    _put(timestamps, "rated_at", row["submitted_at"])
    out: dict[str, Any] = {
        "id": row["id"], "ratingType": row["rating_type"], "conversationChannel": channel,
        "userId": row["user_id"], "ratingStatus": row["status"], "timestamps": timestamps,
    }
    _put(out, "ratingScore", row["score"])
    _put(out, "ratingComment", row["comment"])
    _put(out, "agentId", row["agent_id"])
    _put(out, "language", row["language"])
    return out


def _require_user(ctx: SandboxContext, user_id: str) -> None:
    if ctx.db.one("SELECT 1 FROM users WHERE id = ?", (user_id,)) is None:
        raise bad_request(f"User {user_id} does not exist")


@router.post("/v1/conversations/{conversationId}/ratings/offer",
             response_model=Envelope[RatingOffer], summary="Offer a rating",
             responses=NO_CONVERSATION)
async def offer_rating(ctx: Ctx, conversation_id: ConversationIdPath,
                       body: RatingOfferInput) -> Response:
    """Offer a rating to the customer (by default the requester) about the agent (by default
    the assignee, else the last agent who wrote, else the key's admin)."""
    with ctx.db.tx():
        conversation = rules.get_conversation(ctx, conversation_id)
        user_id = (body.user_id or conversation["requester_id"]).lower()
        _require_user(ctx, user_id)
        if body.agent_id is not None:
            agent_id = body.agent_id.lower()
            rules.require_agent(ctx, agent_id)
        else:
            agent_id = _rated_agent(ctx, conversation)
        rating_id = ctx.new_id()
        ctx.db.run(
            "INSERT INTO ratings (id, conversation_id, user_id, agent_id, rating_type, "
            "offered_at, status, language) VALUES (?, ?, ?, ?, ?, ?, 'Offered', ?)",
            (rating_id, conversation_id, user_id, agent_id, body.rating_type.value,
             iso(body.offered_at) if body.offered_at else ctx.now_iso(),
             conversation["language"]),
        )
        row = ctx.db.one("SELECT * FROM ratings WHERE id = ?", (rating_id,))
        activity.record(ctx, conversation_id, "ConversationRatingOffered",
                        agent=activity.person(ctx, agent_id), user=activity.person(ctx, user_id))
    return ok(offer_shape(row))


@router.post("/v1/conversations/{conversationId}/ratings/{ratingId}/submit",
             response_model=Envelope[RatingResult], summary="Submit a rating",
             responses={404: {"description": "No such conversation, or no such offer in it"},
                        409: {"description": "The offer has already been rated"}})
async def submit_rating(ctx: Ctx, conversation_id: ConversationIdPath, rating_id: RatingIdPath,
                        body: SubmittedRatingResult) -> Response:
    """Answer an offer of this conversation with a result of the offer's type."""
    result = body.rating_result
    with ctx.db.tx():
        rules.get_conversation(ctx, conversation_id)
        row = ctx.db.one("SELECT * FROM ratings WHERE id = ? AND conversation_id = ?",
                         (rating_id.lower(), conversation_id))
        if row is None:
            raise not_found(f"Rating offer {rating_id} of conversation {conversation_id}")
        if result.type != row["rating_type"]:
            raise bad_request(f"Invalid value in request: rating {rating_id} was offered as "
                              f"{row['rating_type']}, not {result.type}")
        if row["status"] == "Rated":
            raise conflict(f"Rating {rating_id} has already been rated")
        ctx.db.run(
            "UPDATE ratings SET status = 'Rated', score = ?, comment = ?, submitted_at = ? "
            "WHERE id = ?",
            (result.value, body.comment,
             iso(body.submitted_at) if body.submitted_at else ctx.now_iso(), row["id"]),
        )
        row = ctx.db.one("SELECT * FROM ratings WHERE id = ?", (row["id"],))
        assert row is not None
        activity.record(ctx, conversation_id, "ConversationRated", author_id=row["user_id"],
                        agent=activity.person(ctx, row["agent_id"]), score=row["score"],
                        message=row["comment"])
    return ok(result_shape(row))


def _statuses(ctx: SandboxContext, conversation_id: int) -> Response:
    conversation = rules.get_conversation(ctx, conversation_id)
    rows = ctx.db.all("SELECT * FROM ratings WHERE conversation_id = ? ORDER BY offered_at, id",
                      (conversation_id,))
    return ok([status_shape(r, conversation["channel"]) for r in rows])


@router.get("/v1/conversations/{conversationId}/ratings",
            response_model=Envelope[list[ConversationRating]],
            summary="Rating statuses of a conversation", responses=NO_CONVERSATION)
async def conversation_ratings(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """Every rating of the conversation: Offered, or Rated with its score."""
    return _statuses(ctx, conversation_id)


@router.get("/v1/conversations/{conversationId}/rating",
            response_model=Envelope[list[ConversationRating]], deprecated=True,
            summary="Rating statuses of a conversation (deprecated: use /ratings)",
            responses=NO_CONVERSATION)
async def conversation_rating(ctx: Ctx, conversation_id: ConversationIdPath) -> Response:
    """The same answer as ``/ratings``."""
    return _statuses(ctx, conversation_id)
