"""Ratings of a conversation, for the ratings panel of a thread: the values each kind takes
and when a rating was given; the calls (the statuses, an offer and, for imports and testing,
a result, its value checked against the kind before sending) are
:class:`~.admin.AdminStore`'s."""

from __future__ import annotations

from datetime import datetime

from ..api.models import ConversationRating
from ..api.wire_time import parse_wire_time

__all__ = ["RATING_RANGES", "rating_time"]

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
