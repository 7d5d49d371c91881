"""The sandbox's conversation search: its field filters compiled to SQL on ``c`` (the
conversations table), each a ``(sql, params)`` pair; an operator that does not fit its field,
a value the field does not know or a missing operator member is a 400.

Tag operators: ``IncludesOne`` (has at least one of the values), ``IncludesAll`` (has them
all), ``ExcludesAll`` (has none of them), ``ExcludesOne`` (lacks at least one of them).
``Duration`` is the time from creation to closing in milliseconds (closed conversations).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..api.models import SearchField, SearchOperator
from .db import dumps, iso
from .errors import bad_request

__all__ = ["CHANNELS", "DATE_COLUMNS", "DIRECTIONS", "STATUSES", "Sql", "compile_field"]

Sql = tuple[str, list[Any]]

#: Channel filter values (lowercase, as the service spells them) → SQL on ``c``.
CHANNELS: dict[str, str] = {
    "email": "c.channel = 'Email'",
    "contactform": "c.channel = 'ContactForm'",
    "chat": "c.channel = 'WidgetChat'",
    "sms": "c.channel = 'Sms'",
    "whatsapp": "c.channel = 'WhatsApp'",
    "phone": "c.channel = 'PstnPhone'",
    "callback": "c.channel = 'Callback'",
    "voicemail": "c.channel = 'Voicemail'",
    "facebookmessenger": "c.channel = 'FacebookMessenger'",
    "twitter": "c.channel = 'Twitter'",
    "messenger": "(c.channel = 'Messenger' AND c.type <> 'GenericConversation')",
    "dixamessenger": "(c.channel = 'Messenger' AND c.type <> 'GenericConversation')",
    "genericapimessaging": "c.type = 'GenericConversation'",
    # third-party channels the sandbox has no conversations of
    "adachat": "0", "digitalgeniuschat": "0", "kindlychat": "0", "trustpilot": "0",
    "yotpo": "0",
}
DIRECTIONS = {"inbound": "Inbound", "outbound": "Outbound", "internal": "Internal"}
STATUSES = {"open": ("Open",), "closed": ("Closed",), "pending": ("Pending", "AwaitingPending")}
DATE_COLUMNS = {
    "CreationDate": "c.created_at",
    "ClosedDate": "c.closed_at",
    "AssignedDate": "c.assigned_at",
    "LastActivity": "c.last_activity_at",
    "LastMessage": "(SELECT m.created_at FROM messages m WHERE m.conversation_id = c.id "
                   "ORDER BY m.seq DESC LIMIT 1)",
}
_DURATION = ("(CASE WHEN c.closed_at IS NULL THEN NULL ELSE "
             "ROUND((julianday(c.closed_at) - julianday(c.created_at)) * 86400000) END)")
MAX_INT64 = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")

#: Members each operator takes (all required).
_MEMBERS: dict[str, frozenset[str]] = {
    "IsOneOf": frozenset({"values"}), "IsNotOneOf": frozenset({"values"}),
    "IncludesOne": frozenset({"values"}), "IncludesAll": frozenset({"values"}),
    "ExcludesOne": frozenset({"values"}), "ExcludesAll": frozenset({"values"}),
    "IsEmpty": frozenset(), "IsNotEmpty": frozenset(),
    "Since": frozenset({"timestamp"}), "Until": frozenset({"timestamp"}),
    "LongerThanOrEqualTo": frozenset({"duration"}),
    "ShorterThanOrEqualTo": frozenset({"duration"}),
}
_WIRE = {"values": "values", "timestamp": "timestamp", "timestamp_from": "timestampFrom",
         "timestamp_to": "timestampTo", "min": "min", "max": "max", "duration": "duration"}



def _given(op: SearchOperator) -> frozenset[str]:
    return frozenset(name for name in _WIRE if getattr(op, name) is not None)


def _check_members(field: SearchField, expected: frozenset[str]) -> None:
    op = field.operator
    if _given(op) != expected:
        takes = ", ".join(sorted(_WIRE[n] for n in expected)) or "nothing else"
        raise bad_request(f"Invalid value in request: operator {op.type} of {field.type} "
                          f"takes {takes}")


def _operator(field: SearchField, allowed: tuple[str, ...]) -> str:
    """The operator's ``_type``, checked against the field and its members."""
    op = field.operator
    if op.type not in allowed:
        raise bad_request(f"Invalid value in request: {field.type} does not support operator "
                          f"{op.type} (use {', '.join(allowed)})")
    if op.type == "Between":
        _check_members(field, frozenset({"min", "max"}) if field.type == "Duration"
                       else frozenset({"timestamp_from", "timestamp_to"}))
    else:
        _check_members(field, _MEMBERS[op.type])
    return op.type


def _strings(field: SearchField) -> list[str]:
    values = field.operator.values or []
    if not values:
        raise bad_request(f"Invalid value in request: {field.type} {field.operator.type} "
                          "needs at least one value")
    if not all(isinstance(v, str) for v in values):
        raise bad_request(f"Invalid value in request: {field.type} values must be strings")
    return [str(v) for v in values]


def _marks(values: list[Any]) -> str:
    return ", ".join("?" for _ in values)


def _one_of(column: str, values: list[Any], negate: bool, nullable: bool) -> Sql:
    sql = f"{column} IN ({_marks(values)})"
    if negate:
        sql = f"({column} IS NULL OR {column} NOT IN ({_marks(values)}))" if nullable \
            else f"{column} NOT IN ({_marks(values)})"
    return sql, list(values)


def _mapped(field: SearchField, table: dict[str, Any], what: str) -> list[Any]:
    """The filter values translated through ``table``; unknown values are a 400."""
    out: list[Any] = []
    for value in _strings(field):
        if value not in table:
            raise bad_request(f"Invalid value in request: unknown {what} '{value}' "
                              f"(one of {', '.join(table)})")
        out.append(table[value])
    return out


# ---------------------------------------------------------------- fields


def _id_field(field: SearchField) -> Sql:
    column = "c.assigned_agent_id" if field.type == "AgentId" else "c.queue_id"
    kind = _operator(field, ("IsEmpty", "IsNotEmpty", "IsOneOf", "IsNotOneOf"))
    if kind == "IsEmpty":
        return f"{column} IS NULL", []
    if kind == "IsNotEmpty":
        return f"{column} IS NOT NULL", []
    return _one_of(column, _strings(field), kind == "IsNotOneOf", nullable=True)


def _contact_field(field: SearchField) -> Sql:
    kind = _operator(field, ("IsOneOf", "IsNotOneOf"))
    return _one_of("c.requester_id", _strings(field), kind == "IsNotOneOf", nullable=False)


def _conversation_field(field: SearchField) -> Sql:
    kind = _operator(field, ("IsOneOf", "IsNotOneOf"))
    ids: list[int] = []
    for value in _strings(field):
        if not _DIGITS.fullmatch(value) or not 1 <= int(value) <= MAX_INT64:
            raise bad_request(f"Invalid value in request: ConversationId '{value}' is not a "
                              "conversation id")
        ids.append(int(value))
    return _one_of("c.id", ids, kind == "IsNotOneOf", nullable=False)


def _channel_field(field: SearchField) -> Sql:
    kind = _operator(field, ("IsOneOf", "IsNotOneOf"))
    sql = "(" + " OR ".join(_mapped(field, CHANNELS, "channel")) + ")"
    return (f"NOT {sql}" if kind == "IsNotOneOf" else sql), []


def _direction_field(field: SearchField) -> Sql:
    kind = _operator(field, ("IsOneOf", "IsNotOneOf"))
    return _one_of("c.direction", _mapped(field, DIRECTIONS, "direction"),
                   kind == "IsNotOneOf", nullable=True)


def _status_field(field: SearchField) -> Sql:
    kind = _operator(field, ("IsOneOf", "IsNotOneOf"))
    states = [s for group in _mapped(field, STATUSES, "status") for s in group]
    return _one_of("c.state", states, kind == "IsNotOneOf", nullable=False)


def _date_field(field: SearchField) -> Sql:
    column = DATE_COLUMNS[field.type]
    kind = _operator(field, ("Between", "Since", "Until"))
    op = field.operator
    if kind == "Between":
        assert op.timestamp_from is not None and op.timestamp_to is not None
        if op.timestamp_from > op.timestamp_to:
            raise bad_request("Invalid value in request: timestampFrom is after timestampTo")
        return f"{column} BETWEEN ? AND ?", [iso(op.timestamp_from), iso(op.timestamp_to)]
    assert op.timestamp is not None
    return f"{column} {'>=' if kind == 'Since' else '<='} ?", [iso(op.timestamp)]


def _millis(value: int | None, name: str) -> int:
    if value is None or not 0 <= value <= MAX_INT64:
        raise bad_request(f"Invalid value in request: Duration {name} must be 0 to "
                          f"{MAX_INT64} milliseconds")
    return value


def _duration_field(field: SearchField) -> Sql:
    kind = _operator(field, ("Between", "LongerThanOrEqualTo", "ShorterThanOrEqualTo"))
    op = field.operator
    for name in ("min", "max", "duration"):
        if getattr(op, name) is not None:
            _millis(getattr(op, name), name)
    if kind == "Between":
        assert op.min is not None and op.max is not None
        if op.min > op.max:
            raise bad_request("Invalid value in request: min is greater than max")
        return f"{_DURATION} BETWEEN ? AND ?", [op.min, op.max]
    assert op.duration is not None
    return f"{_DURATION} {'>=' if kind == 'LongerThanOrEqualTo' else '<='} ?", [op.duration]


def _tag_field(field: SearchField) -> Sql:
    kind = _operator(field, ("IncludesOne", "IncludesAll", "ExcludesOne", "ExcludesAll",
                             "IsEmpty", "IsNotEmpty"))
    tagged = "SELECT 1 FROM conversation_tags t WHERE t.conversation_id = c.id"
    if kind in ("IsEmpty", "IsNotEmpty"):
        return f"{'NOT ' if kind == 'IsEmpty' else ''}EXISTS ({tagged})", []
    values = sorted(set(_strings(field)))
    if kind in ("IncludesOne", "ExcludesAll"):
        sql = f"EXISTS ({tagged} AND t.tag_id IN ({_marks(values)}))"
        return (sql if kind == "IncludesOne" else f"NOT {sql}"), values
    sql = (f"(SELECT COUNT(*) FROM conversation_tags t WHERE t.conversation_id = c.id "
           f"AND t.tag_id IN ({_marks(values)})) = ?")
    return (sql if kind == "IncludesAll" else f"NOT ({sql})"), [*values, len(values)]


def _attribute_field(field: SearchField) -> Sql:
    if not field.attribute_id:
        raise bad_request("Invalid value in request: a CustomAttribute filter needs "
                          "attributeId")
    kind = _operator(field, ("IsEmpty", "IsNotEmpty", "IsOneOf", "IsNotOneOf"))
    value = "(CASE WHEN json_valid(v.value) THEN json(v.value) END)"
    stored = ("SELECT 1 FROM custom_attribute_values v WHERE v.entity_type = 'Conversation' "
              "AND v.entity_id = CAST(c.id AS TEXT) AND v.attribute_id = ?")
    if kind in ("IsEmpty", "IsNotEmpty"):
        sql = f"EXISTS ({stored} AND {value} NOT IN ('null', '\"\"', '[]'))"
        return (f"NOT {sql}" if kind == "IsEmpty" else sql), [field.attribute_id]
    paths = field.operator.values or []
    if not paths or not all(isinstance(p, list) and p for p in paths):
        raise bad_request("Invalid value in request: CustomAttribute values must be value "
                          "paths (non-empty arrays of strings)")
    candidates: list[str] = []
    for path in paths:
        candidates.append(dumps(path))
        if len(path) == 1:
            candidates.append(dumps(path[0]))
    inner = ", ".join("json(?)" for _ in candidates)
    sql = f"EXISTS ({stored} AND {value} IN ({inner}))"
    return (sql if kind == "IsOneOf" else f"NOT {sql}"), [field.attribute_id, *candidates]


def _unsupported(field: SearchField) -> Sql:
    raise bad_request(f"Invalid value in request: field {field.type} is not supported")


_FIELDS: dict[str, Callable[[SearchField], Sql]] = {
    "AgentId": _id_field, "QueueId": _id_field, "ContactId": _contact_field,
    "ConversationId": _conversation_field, "Channel": _channel_field,
    "Direction": _direction_field, "Status": _status_field, "Duration": _duration_field,
    "TagId": _tag_field, "CustomAttribute": _attribute_field,
    **dict.fromkeys(DATE_COLUMNS, _date_field),
}


def compile_field(field: SearchField) -> Sql:
    """One filter condition as SQL on the conversation ``c``; a 400 when it does not fit."""
    if field.attribute_id is not None and field.type != "CustomAttribute":
        raise bad_request(f"Invalid value in request: {field.type} takes no attributeId")
    return _FIELDS.get(field.type, _unsupported)(field)
