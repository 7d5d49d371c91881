"""Building blocks shared by every model of the contract.

Two families of models:

* ``Record`` — what the service sends. Lenient, because the client must also work against the
  real service: unknown fields are kept, and enum-like fields accept values we do not know yet.
* ``Input`` — what a caller sends. Exact about what it knows: wrong types and out-of-range
  values are refused, so the sandbox rejects bad requests and the client refuses them before
  sending. Unknown members are ignored by the sandbox, as the published schemas never forbid
  them; the client validates with ``extra="forbid"`` so a caller's misspelt field is refused.

Field names are snake_case in Python and camelCase on the wire; ``_type`` is ``type``.
Timestamps come in three published forms (``…Z``, ``…Z[GMT]`` and zone-less) and all parse
to aware UTC datetimes; each field serialises back in the form the service uses for it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
)
from pydantic.alias_generators import to_camel

from ..wire_time import (
    TimeOutOfRange,
    format_local,
    format_utc,
    format_zoned,
    parse_wire_time,
)

__all__ = [
    "UUID_PATTERN",
    "BulkActionOutcome",
    "BulkError",
    "ConversationId",
    "Envelope",
    "ErrorBody",
    "IdRef",
    "Input",
    "LocalDateTime",
    "PageMeta",
    "PagedEnvelope",
    "Record",
    "UtcDateTime",
    "Uuid",
    "ZonedDateTime",
    "format_local",
    "format_utc",
    "format_zoned",
    "parse_timestamp",
]

T = TypeVar("T")

UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_UUID_RE = re.compile(UUID_PATTERN)

#: A UUID as the service writes it: text, validated for shape, kept as given.
_UUID_EXAMPLE = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"
Uuid = Annotated[str, Field(pattern=UUID_PATTERN, examples=[_UUID_EXAMPLE])]

#: A conversation id ("csid"): a positive int64.
ConversationId = Annotated[int, Field(ge=1, le=2**63 - 1)]


def is_uuid(value: str) -> bool:
    """Whether ``value`` is a UUID in its textual form."""
    return bool(_UUID_RE.match(value))


def parse_timestamp(value: Any) -> Any:
    """Parse the three timestamp forms of the service into an aware UTC datetime
    (:func:`~frontdesk.api.wire_time.parse_wire_time`). Anything else is passed on for
    pydantic to reject with its own message.
    """
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str):
        try:
            return parse_wire_time(value)
        except TimeOutOfRange:
            raise
        except ValueError:
            return value
    return value



_TS_SCHEMA = {"type": "string", "format": "date-time"}
_TS_LAX_SCHEMA = {"type": "string"}

#: A timestamp sent as ``…Z``.
UtcDateTime = Annotated[
    datetime,
    BeforeValidator(parse_timestamp),
    PlainSerializer(format_utc, return_type=str, when_used="json"),
    WithJsonSchema(_TS_SCHEMA),
]
#: A timestamp sent as ``…Z[GMT]``.
ZonedDateTime = Annotated[
    datetime,
    BeforeValidator(parse_timestamp),
    PlainSerializer(format_zoned, return_type=str, when_used="json"),
    WithJsonSchema(_TS_LAX_SCHEMA),
]
#: A timestamp sent without a zone (read and written as UTC).
LocalDateTime = Annotated[
    datetime,
    BeforeValidator(parse_timestamp),
    PlainSerializer(format_local, return_type=str, when_used="json"),
    WithJsonSchema(_TS_LAX_SCHEMA),
]


class Record(BaseModel):
    """Something the service sends: unknown fields are kept, never an error."""

    model_config = ConfigDict(
        extra="allow",
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    def wire(self) -> dict[str, Any]:
        """The JSON-ready dict the service would send (aliases, no ``None`` members)."""
        return self.model_dump(mode="json", exclude_none=True)


class Input(BaseModel):
    """Something a caller sends: exact, so a bad request is refused with a clear message.

    Strict: ``0`` is not a boolean and ``"1"`` is not a number. Timestamps still come as text
    (their validator parses them first); enum fields opt out with ``Field(strict=False)``.
    Unknown members are ignored (the service's published rule); the client's own checks add
    ``extra="forbid"`` when validating a caller's input.
    """

    model_config = ConfigDict(
        strict=True,
        extra="ignore",
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    def wire(self) -> dict[str, Any]:
        """The JSON body to send (aliases, no ``None`` members)."""
        return self.model_dump(mode="json", exclude_none=True)


class ErrorBody(Record):
    """The body of every error response: ``{"message": "…"}``."""

    message: str


class PageMeta(Record):
    """Links of a paged list: root-relative URLs carrying an opaque ``pageKey``."""

    next: str | None = None
    previous: str | None = None


class Envelope(BaseModel, Generic[T]):
    """``{"data": …}``: the envelope of every response with data."""

    data: T


class PagedEnvelope(BaseModel, Generic[T]):
    """``{"data": [...], "meta": {...}}``: one page of a paged list."""

    data: list[T]
    meta: PageMeta | None = None


class IdRef(Record):
    """A bare ``{"id": …}`` reference."""

    id: str


class BulkError(Record):
    """Why one item of a bulk operation failed (a bulk of notes gives the message alone)."""

    type: str | None = Field(default=None, alias="_type",
                             description="EmptyPatchSet, ErrorResponse, Infrastructure, "
                             "Integrity, InvalidArgument, NotFound or Validation")
    message: str
    id: str | None = None


D = TypeVar("D")


class BulkActionOutcome(Record, Generic[D]):
    """The outcome of one item of a bulk operation: success with its ``data`` (typed as the
    operation publishes it: ``BulkActionOutcome[Agent]`` for agents, ``[EndUser]``,
    ``[InternalNote]``, ``[str]`` for a queue member's id), or failure with an error."""

    type: str = Field(alias="_type", description="BulkActionSuccess or BulkActionFailure")
    data: D | None = None
    error: BulkError | None = None

    @property
    def ok(self) -> bool:
        """Whether this item succeeded."""
        return self.type == "BulkActionSuccess"
