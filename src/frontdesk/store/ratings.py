"""Ratings of a conversation, for the ratings panel of a thread: the statuses, an offer and
(for imports and testing) a result, its value checked against the kind before sending. A
part of :class:`~.admin.AdminStore`, following its convention."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..api.models import ConversationRating, RatingOffer, RatingResult
from ..api.models.common import is_uuid
from ..api.wire_time import parse_wire_time
from .errors import Refused, refusals

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .hub import Hub

__all__ = ["RATING_RANGES", "RatingCalls", "rating_time"]

#: The values each kind of rating takes (inclusive), and what they mean.
RATING_RANGES: dict[str, tuple[int, int, str]] = {
    "Csat": (1, 5, "1 (very unhappy) to 5 (very happy)"),
    "Nps": (0, 10, "0 (would not recommend) to 10 (would)"),
    "ThumbsUpOrDown": (0, 1, "0 (thumbs down) or 1 (thumbs up)"),
}


def rating_time(status: ConversationRating) -> datetime | None:
    """When a rating question was answered, else when it was offered (None: the service
    gave neither, or in a form that does not read)."""
    stamps = status.timestamps
    for key in ("rated_at", "ratedAt", "submitted_at", "submittedAt", "offered_at", "offeredAt"):
        value = stamps.get(key)
        if isinstance(value, str):
            try:
                return parse_wire_time(value)
            except ValueError:
                continue
    return None


class RatingCalls:
    """The ratings calls of the Admin store."""

    _hub: Hub

    @property
    def client(self) -> ApiClient:
        """The session's API client."""
        return self._hub.client

    async def rating_statuses(self, conversation_id: int) -> list[ConversationRating]:
        """Each rating question of a conversation, Offered or Rated."""
        with refusals("Could not read the ratings"):
            return await self.client.ratings.list(conversation_id)

    async def rating_statuses_deprecated(self, conversation_id: int
                                         ) -> list[ConversationRating]:
        """Deprecated path (``GET …/rating``): the same statuses."""
        with refusals("Could not read the ratings (deprecated path)"):
            return await self.client.ratings.list_deprecated(conversation_id)

    async def offer_rating(self, conversation_id: int, rating_type: str) -> RatingOffer:
        """Offer a rating of ``rating_type`` (Csat, Nps or ThumbsUpOrDown)."""
        if rating_type not in RATING_RANGES:
            raise Refused("A rating is Csat, Nps or ThumbsUpOrDown")
        with refusals("Could not offer the rating"):
            return await self.client.ratings.offer(conversation_id, rating_type)

    async def submit_rating(self, conversation_id: int, rating_id: str, rating_type: str,
                            value: str, comment: str = "") -> RatingResult:
        """Submit a result for the offer ``rating_id`` (for imports and testing): the value
        is checked against the kind before sending."""
        rating_id = rating_id.strip()
        if not is_uuid(rating_id):
            raise Refused("A rating id is a UUID (the id of an offer)")
        if rating_type not in RATING_RANGES:
            raise Refused("A rating is Csat, Nps or ThumbsUpOrDown")
        low, high, meaning = RATING_RANGES[rating_type]
        text = value.strip()
        if not text.isdigit() or not low <= int(text) <= high:
            raise Refused(f"A {rating_type} value is {meaning}")
        with refusals("Could not submit the rating"):
            return await self.client.ratings.submit(
                conversation_id, rating_id, int(text), rating_type=rating_type,
                comment=comment.strip() or None)
