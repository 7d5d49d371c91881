"""Conversation search: a text query and field filters, answered with ids and highlights."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import Input, Record, UtcDateTime


class SearchQuery(Input):
    """Text to look for."""

    value: str = Field(min_length=1, max_length=1000)
    exact_match: bool | None = None


class SearchOperator(Input):
    """How a field is compared. Which members apply depends on ``_type``.

    ``IsOneOf``/``IsNotOneOf`` (values), ``IsEmpty``/``IsNotEmpty``, ``IncludesOne``,
    ``IncludesAll``, ``ExcludesOne``, ``ExcludesAll`` (values), ``Between`` (timestampFrom and
    timestampTo, or min and max), ``Since``/``Until`` (timestamp), ``LongerThanOrEqualTo``,
    ``ShorterThanOrEqualTo`` (duration).
    """

    type: Literal[
        "IsOneOf", "IsNotOneOf", "IsEmpty", "IsNotEmpty", "IncludesOne", "IncludesAll",
        "ExcludesOne", "ExcludesAll", "Between", "Since", "Until",
        "LongerThanOrEqualTo", "ShorterThanOrEqualTo",
    ] = Field(alias="_type")
    values: list[str] | list[list[str]] | None = None
    timestamp_from: UtcDateTime | None = None
    timestamp_to: UtcDateTime | None = None
    timestamp: UtcDateTime | None = None
    min: int | None = None
    max: int | None = None
    duration: int | None = None


class SearchField(Input):
    """A field to filter on, with its operator."""

    type: Literal[
        "AgentId", "QueueId", "ContactId", "ConversationId", "Channel", "Direction", "Status",
        "AssignedDate", "ClosedDate", "CreationDate", "LastActivity", "LastMessage",
        "Duration", "TagId", "CustomAttribute",
    ] = Field(alias="_type")
    attribute_id: str | None = None
    operator: SearchOperator


class SearchCondition(Input):
    """One condition of a filter."""

    field: SearchField


class SearchFilters(Input):
    """Conditions, all of which (``All``) or any of which (``Any``) must hold."""

    strategy: Literal["All", "Any"]
    conditions: list[SearchCondition] = Field(default_factory=list, max_length=50)


class SearchConversationsInput(Input):
    """A conversation search."""

    query: SearchQuery | None = None
    filters: SearchFilters | None = None


class SearchInnerHit(Record):
    """A message where a text search matched, the match marked in ``highlight["text"]``
    (the deprecated search's answer only)."""

    id: str
    highlight: dict[str, str] = Field(default_factory=dict)


class SearchHit(Record):
    """A conversation found, with the matched text marked in ``highlights`` (and, from the
    deprecated search by text, the messages that matched in ``inner_hits``)."""

    id: int
    highlights: dict[str, list[str]] = Field(default_factory=dict)
    inner_hits: list[SearchInnerHit] | None = None


__all__ = [
    "SearchCondition",
    "SearchConversationsInput",
    "SearchField",
    "SearchFilters",
    "SearchHit",
    "SearchInnerHit",
    "SearchOperator",
    "SearchQuery",
]
