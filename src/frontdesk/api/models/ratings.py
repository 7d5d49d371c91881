"""Ratings: offers, submitted results and statuses."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field

from .common import Input, Record, UtcDateTime, Uuid


class RatingType(StrEnum):
    """Kinds of rating."""

    CSAT = "Csat"
    NPS = "Nps"
    THUMBS = "ThumbsUpOrDown"


class RatingOfferInput(Input):
    """Offer a rating; user and agent default to the requester and the assignee."""

    rating_type: RatingType = Field(strict=False)
    user_id: Uuid | None = None
    agent_id: Uuid | None = None
    offered_at: UtcDateTime | None = None


class RatingOffer(Record):
    """A rating offered to a customer."""

    id: str
    user_id: str
    agent_id: str
    rating_type: str
    offered_at: UtcDateTime | None = None


class CsatResult(Input):
    """Customer satisfaction, 1 to 5."""

    type: Literal["Csat"] = Field(alias="_type")
    value: int = Field(ge=1, le=5)


class NpsResult(Input):
    """Net promoter score, 0 to 10."""

    type: Literal["Nps"] = Field(alias="_type")
    value: int = Field(ge=0, le=10)


class ThumbsResult(Input):
    """Thumbs down (0) or up (1)."""

    type: Literal["ThumbsUpOrDown"] = Field(alias="_type")
    value: int = Field(ge=0, le=1)


RatingResultInput = Annotated[CsatResult | NpsResult | ThumbsResult, Field(discriminator="type")]


class SubmittedRatingResult(Input):
    """The answer to a rating offer."""

    rating_result: RatingResultInput
    comment: str | None = Field(default=None, max_length=5000)
    submitted_at: UtcDateTime | None = None
    user_id: str | None = Field(default=None, deprecated=True, description="no longer used")


class RatingValue(Record):
    """A submitted rating value."""

    type: str = Field(alias="_type")
    value: int | None = None


class RatingResult(Record):
    """A submitted rating."""

    rating_id: str
    user_id: str | None = None
    rating_result: RatingValue
    comment: str | None = None
    submitted_at: UtcDateTime | None = None


class ConversationRating(Record):
    """The status of one rating question of a conversation."""

    id: str
    rating_score: int | None = None
    rating_type: str
    rating_comment: str | None = None
    conversation_channel: str
    agent_id: str | None = None
    user_id: str
    rating_status: str = Field(description="Offered or Rated (also Unscheduled, Scheduled, "
                               "Cancelled)")
    language: str | None = None
    timestamps: dict[str, str] = Field(default_factory=dict)


__all__ = [
    "ConversationRating",
    "CsatResult",
    "NpsResult",
    "RatingOffer",
    "RatingOfferInput",
    "RatingResult",
    "RatingResultInput",
    "RatingType",
    "RatingValue",
    "SubmittedRatingResult",
    "ThumbsResult",
]
