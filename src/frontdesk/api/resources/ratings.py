"""Ratings: offer a rating for a conversation, submit the answer, read the statuses."""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Any

from ..models.ratings import (
    ConversationRating,
    CsatResult,
    NpsResult,
    RatingOffer,
    RatingOfferInput,
    RatingResult,
    RatingType,
    SubmittedRatingResult,
    ThumbsResult,
)
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    check_uuid,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["RatingsResource"]

_OFFER = operation("ratings.offer")
_SUBMIT = operation("ratings.submit")
_LIST = operation("ratings.list")
_LIST_DEPRECATED = operation("ratings.list_deprecated")


class RatingsResource(Resource):
    """``client.ratings``: offers, answers and statuses of a conversation's ratings."""

    async def offer(
        self,
        conversation_id: int,
        rating_type: RatingType | str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        offered_at: datetime | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> RatingOffer:
        """Offer a rating (Csat, Nps or ThumbsUpOrDown); user and agent default to the
        requester and the assignee. Not retried once it may have reached the service."""
        path = {"conversationId": check_conversation_id(conversation_id, _OFFER)}
        body = build(_OFFER, RatingOfferInput, rating_type=rating_type,
                     user_id=None if user_id is None else check_uuid(user_id, _OFFER, "user id"),
                     agent_id=None if agent_id is None else check_uuid(agent_id, _OFFER,
                                                                        "agent id"),
                     offered_at=offered_at)
        reply = await self._transport.send(_OFFER, path=path, body=body.wire(), priority=priority)
        return parse_one(_OFFER, unwrap(_OFFER, reply.body), RatingOffer)

    async def submit(
        self,
        conversation_id: int,
        rating_id: str,
        value: int | None = None,
        *,
        rating_type: RatingType | str | None = None,
        result: CsatResult | NpsResult | ThumbsResult | None = None,
        comment: str | None = None,
        submitted_at: datetime | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> RatingResult:
        """Submit the answer to the offer ``rating_id``: ``value`` of ``rating_type`` (Csat
        1-5, Nps 0-10, ThumbsUpOrDown 0 or 1, checked before sending), or a ready ``result``.
        """
        path: dict[str, str | int] = {
            "conversationId": check_conversation_id(conversation_id, _SUBMIT),
            "ratingId": check_uuid(rating_id, _SUBMIT, "rating id")}
        chosen: Any = result
        if chosen is None:
            if rating_type is None or value is None:
                raise fail(_SUBMIT, "Give the rating's type and value (or a result)")
            kind = str(rating_type.value if isinstance(rating_type, RatingType) else rating_type)
            chosen = {"_type": kind, "value": value}
        body = build(_SUBMIT, SubmittedRatingResult, rating_result=chosen, comment=comment,
                     submitted_at=submitted_at)
        reply = await self._transport.send(_SUBMIT, path=path, body=body.wire(), priority=priority)
        return parse_one(_SUBMIT, unwrap(_SUBMIT, reply.body), RatingResult)

    async def list(self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
                   ) -> builtins.list[ConversationRating]:
        """The latest rating statuses of a conversation: one entry per question (a
        multi-question survey shares one id), each Offered or Rated."""
        path = {"conversationId": check_conversation_id(conversation_id, _LIST)}
        reply = await self._transport.send(_LIST, path=path, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), ConversationRating)

    async def list_deprecated(
        self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
    ) -> builtins.list[ConversationRating]:
        """Deprecated (``GET …/rating``): the same as :meth:`list`, which replaces it."""
        path = {"conversationId": check_conversation_id(conversation_id, _LIST_DEPRECATED)}
        reply = await self._transport.send(_LIST_DEPRECATED, path=path, priority=priority)
        return parse_items(_LIST_DEPRECATED, unwrap(_LIST_DEPRECATED, reply.body),
                           ConversationRating)
