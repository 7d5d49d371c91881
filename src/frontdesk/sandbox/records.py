"""Writing whole records into the sandbox's database: used by routes, the seed, the simulator
and the tests' factories, so there is one place that knows each table's columns.

Each function takes the database, writes inside the caller's transaction, and returns the
new row's id. Times are stored ``…Z`` text (``db.iso``).
"""

from __future__ import annotations

import uuid
from typing import Any

from . import hours
from .db import Database, dumps


def new_id() -> str:
    """A fresh UUID in text form."""
    return str(uuid.uuid4())


def _insert(db: Database, table: str, values: dict[str, Any]) -> None:
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    db.run(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(values.values()))


def _json_or_none(value: Any) -> str | None:
    return None if value is None else dumps(value)


def insert_user(
    db: Database,
    *,
    kind: str,
    created_at: str,
    id: str | None = None,
    display_name: str | None = None,
    email: str | None = None,
    phone_number: str | None = None,
    external_id: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    middle_names: list[str] | None = None,
    additional_emails: list[str] | None = None,
    additional_phone_numbers: list[str] | None = None,
    avatar_url: str | None = None,
    roles: list[str] | None = None,
) -> str:
    """An end user (``kind='enduser'``) or an agent/admin (``kind='agent'``, with presence)."""
    user_id = id or new_id()
    _insert(db, "users", {
        "id": user_id, "kind": kind, "created_at": created_at, "display_name": display_name,
        "email": email, "phone_number": phone_number, "external_id": external_id,
        "first_name": first_name, "last_name": last_name,
        "middle_names": _json_or_none(middle_names),
        "additional_emails": _json_or_none(additional_emails),
        "additional_phone_numbers": _json_or_none(additional_phone_numbers),
        "avatar_url": avatar_url,
        "roles": _json_or_none(roles if roles is not None else (["Agent"] if kind == "agent"
                                                                 else None)),
    })
    if kind == "agent":
        db.run("INSERT OR IGNORE INTO presence (user_id) VALUES (?)", (user_id,))
    return user_id


#: User columns stored as JSON lists.
USER_LISTS = frozenset({"middle_names", "additional_emails", "additional_phone_numbers"})


def update_user(db: Database, user_id: str, changes: dict[str, Any]) -> None:
    """Set the user columns in ``changes`` (lists stored as JSON; ``None`` clears)."""
    if not changes:
        return
    values = [_json_or_none(v) if k in USER_LISTS else v for k, v in changes.items()]
    names = ", ".join(f"{k} = ?" for k in changes)
    db.run(f"UPDATE users SET {names} WHERE id = ?", (*values, user_id))


def set_presence(db: Database, user_id: str, *, connection: str, status: str,
                 channels: list[str], last_seen: str | None) -> None:
    """An agent's presence."""
    db.run(
        "INSERT INTO presence (user_id, connection_status, presence_status, last_seen, channels) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
        "connection_status = excluded.connection_status, "
        "presence_status = excluded.presence_status, last_seen = excluded.last_seen, "
        "channels = excluded.channels",
        (user_id, connection, status, last_seen, dumps(channels)),
    )


def insert_team(db: Database, *, name: str, created_at: str, id: str | None = None,
                members: list[str] = ()) -> str:  # type: ignore[assignment]
    """A team with its members."""
    team_id = id or new_id()
    _insert(db, "teams", {"id": team_id, "name": name, "created_at": created_at})
    for agent_id in members:
        db.run("INSERT OR IGNORE INTO team_members (team_id, agent_id, added_at) "
               "VALUES (?, ?, ?)", (team_id, agent_id, created_at))
    return team_id


def insert_queue(db: Database, *, name: str, created_at: str, id: str | None = None,
                 is_default: bool = False, settings: dict[str, Any] | None = None,
                 members: list[tuple[str, int | None]] = ()) -> str:  # type: ignore[assignment]
    """A queue with its settings (wire names, as in the Queue record) and members."""
    queue_id = id or new_id()
    _insert(db, "queues", {"id": queue_id, "name": name, "is_default": int(is_default),
                           "settings": dumps(settings or {}), "created_at": created_at})
    for agent_id, priority in members:
        db.run("INSERT OR IGNORE INTO queue_members (queue_id, agent_id, priority) "
               "VALUES (?, ?, ?)", (queue_id, agent_id, priority))
    return queue_id


def insert_conversation(db: Database, *, type: str, channel: str, requester_id: str,
                        created_at: str, state: str = "Open", **columns: Any) -> int:
    """A conversation; other columns by name (``assigned_agent_id``, ``queue_id``, …).

    ``browser_info`` and ``link`` may be given as dicts.
    """
    for key in ("browser_info", "link"):
        if isinstance(columns.get(key), dict):
            columns[key] = dumps(columns[key])
    values = {"type": type, "channel": channel, "requester_id": requester_id,
              "created_at": created_at, "state": state,
              "state_updated_at": columns.pop("state_updated_at", created_at),
              "last_activity_at": columns.pop("last_activity_at", created_at), **columns}
    if values.get("queue_id") is not None and values.get("last_queue_id") is None:
        values["last_queue_id"] = values["queue_id"]
    columns_sql = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = db.run(f"INSERT INTO conversations ({columns_sql}) VALUES ({marks})",
                    tuple(values.values()))
    return int(cursor.lastrowid or 0)


def insert_message(db: Database, *, conversation_id: int, author_id: str, created_at: str,
                   direction: str, attributes: dict[str, Any], external_id: str | None = None,
                   id: str | None = None, body_text: str | None = None) -> str:
    """A message; ``attributes`` in wire form (``_type``, ``content``, …)."""
    message_id = id or new_id()
    if body_text is None:
        body_text = message_text(attributes)
    _insert(db, "messages", {
        "id": message_id, "conversation_id": conversation_id, "author_id": author_id,
        "external_id": external_id, "created_at": created_at, "direction": direction,
        "attributes": dumps(attributes), "body_text": body_text,
    })
    return message_id


def message_text(attributes: dict[str, Any]) -> str:
    """The searchable text of a message's attributes."""
    content = attributes.get("content") or (attributes.get("emailContent") or {}).get("content")
    parts = [str(content.get("value", ""))] if isinstance(content, dict) else []
    if attributes.get("subject"):
        parts.append(str(attributes["subject"]))
    return "\n".join(parts)


def insert_tag(db: Database, *, name: str, created_at: str, id: str | None = None,
               color: str | None = None, state: str = "Active") -> str:
    """A tag."""
    tag_id = id or new_id()
    _insert(db, "tags", {"id": tag_id, "name": name, "color": color, "state": state,
                         "created_at": created_at})
    return tag_id


def tag_conversation(db: Database, conversation_id: int, tag_id: str, at: str) -> None:
    """Apply a tag to a conversation."""
    db.run("INSERT OR IGNORE INTO conversation_tags (conversation_id, tag_id, tagged_at) "
           "VALUES (?, ?, ?)", (conversation_id, tag_id, at))


# ---------------------------------------------------------------------------------------------
# Ratings, custom attributes, contact endpoints, schedules, anonymisation requests

#: The service-owned domain of the deprecated listing's internal email addresses.
INTERNAL_EMAIL_DOMAIN = "mail.frontdesk.invalid"


def insert_rating_offer(db: Database, *, conversation_id: int, user_id: str, rating_type: str,
                        offered_at: str, agent_id: str | None = None, id: str | None = None,
                        language: str | None = None, score: int | None = None,
                        comment: str | None = None, submitted_at: str | None = None) -> str:
    """A rating offer (``rating_type`` Csat, Nps or ThumbsUpOrDown); Rated when ``score``."""
    rating_id = id or new_id()
    _insert(db, "ratings", {
        "id": rating_id, "conversation_id": conversation_id, "user_id": user_id,
        "agent_id": agent_id, "rating_type": rating_type, "offered_at": offered_at,
        "status": "Offered" if score is None else "Rated", "score": score,
        "comment": comment, "submitted_at": submitted_at, "language": language,
    })
    return rating_id


def insert_attribute_definition(
    db: Database, *, entity_type: str, identifier: str, label: str,
    input_definition: dict[str, Any], created_at: str, id: str | None = None,
    description: str | None = None, updated_at: str | None = None, is_required: bool = False,
    is_archived: bool = False, is_deactivated: bool = False, position: int = 0,
) -> str:
    """A custom attribute definition (``entity_type`` Contact or Conversation).

    ``input_definition`` is in wire form: ``{"_type": "Text", "placeholder": …}`` or
    ``{"_type": "Select", "options": [{id, label, value, nestedOptions, isDeactivated,
    orderIndex}, …]}``.
    """
    attribute_id = id or new_id()
    _insert(db, "custom_attribute_definitions", {
        "id": attribute_id, "entity_type": entity_type, "identifier": identifier,
        "label": label, "input_definition": dumps(input_definition),
        "description": description, "created_at": created_at, "updated_at": updated_at,
        "is_required": int(is_required), "is_archived": int(is_archived),
        "is_deactivated": int(is_deactivated), "position": position,
    })
    return attribute_id


def set_attribute_value(db: Database, *, entity_type: str, entity_id: str | int,
                        attribute_id: str, value: str | list[str] | None) -> None:
    """Set (or with ``None`` clear) a custom attribute of an end user (``Contact``, by user id)
    or a conversation (``Conversation``, by csid); Select values are option-value paths."""
    if value is None:
        db.run("DELETE FROM custom_attribute_values WHERE entity_type = ? AND entity_id = ? "
               "AND attribute_id = ?", (entity_type, str(entity_id), attribute_id))
        return
    db.run(
        "INSERT INTO custom_attribute_values (entity_type, entity_id, attribute_id, value) "
        "VALUES (?, ?, ?, ?) ON CONFLICT (entity_type, entity_id, attribute_id) "
        "DO UPDATE SET value = excluded.value",
        (entity_type, str(entity_id), attribute_id, dumps(value)),
    )


def insert_contact_endpoint(
    db: Database, *, address: str | None = None, number: str | None = None,
    name: str | None = None, sender_override: str | None = None,
    functionality: list[str] | None = None, legacy_id: str | None = None,
    internal_email_address: str | None = None, position: int = 0,
) -> str:
    """An email endpoint (``address``) or a phone endpoint (``number``, E.164); returns its key.

    ``legacy_id`` is its id in the deprecated listing (a new UUID by default); an email
    endpoint's ``internal_email_address`` defaults to one in ``INTERNAL_EMAIL_DOMAIN``.
    """
    if (address is None) == (number is None):
        raise ValueError("give exactly one of address and number")
    legacy_id = legacy_id or new_id()
    if address is not None and internal_email_address is None:
        local = address.split("@", 1)[0].lower()
        internal_email_address = f"{local}.{legacy_id[:8]}@{INTERNAL_EMAIL_DOMAIN}"
    key = address if address is not None else number
    assert key is not None
    _insert(db, "contact_endpoints", {
        "key": key, "type": "EmailEndpoint" if address is not None else "TelephonyEndpoint",
        "name": name, "sender_override": sender_override,
        "functionality": _json_or_none(functionality), "legacy_id": legacy_id,
        "internal_email_address": internal_email_address if address is not None else None,
        "position": position,
    })
    return key


def insert_schedule(db: Database, *, name: str, timezone: str, id: str | None = None,
                    position: int = 0) -> str:
    """A business-hours schedule in an IANA ``timezone``; add its days with
    ``insert_schedule_entry``. A zone this system does not know is a ValueError."""
    if not hours.valid_zone(timezone):
        raise ValueError(f"unknown time zone: {timezone!r}")
    schedule_id = id or new_id()
    _insert(db, "schedules", {"id": schedule_id, "name": name, "timezone": timezone,
                              "position": position})
    return schedule_id


def insert_schedule_entry(
    db: Database, *, schedule_id: str, kind: str, name: str, start_date: str,
    status: str = "Open", day_of_week: int | None = None,
    intervals: list[tuple[str, str]] | None = None, recurring: dict[str, Any] | None = None,
) -> int:
    """One day rule of a schedule.

    ``kind`` Regular (weekly on ``day_of_week``, 1 = Monday, from ``start_date``), Exception
    or Holiday (on ``start_date``, or each year with ``recurring`` in wire form, e.g.
    ``{"dayOfMonth": 25, "monthOfYear": 12}``). ``intervals`` are local ``("HH:MM", "HH:MM")``
    pairs; a Closed day has none. Dates are ``YYYY-MM-DD``. Bad values are a ValueError.
    """
    hours.rule_from_row(kind=kind, name=name, status=status, start_date=start_date,
                        intervals=[], day_of_week=day_of_week, recurring=recurring)
    for start, end in intervals or []:
        if hours.parse_clock(end) <= hours.parse_clock(start):
            raise ValueError(f"an interval ends before it starts: {start}-{end}")
    if kind not in (hours.REGULAR, hours.EXCEPTION, hours.HOLIDAY) or status not in (
            hours.OPEN, hours.CLOSED) or (kind == hours.REGULAR) != (day_of_week is not None):
        raise ValueError("a Regular entry has a day_of_week (1-7), others none; status is "
                         "Open or Closed")
    if day_of_week is not None and not 1 <= day_of_week <= 7:
        raise ValueError(f"day_of_week is 1 (Monday) to 7: {day_of_week}")
    wire = [{"startTime": start, "endTime": end} for start, end in (intervals or [])]
    cursor = db.run(
        "INSERT INTO schedule_entries (schedule_id, kind, name, day_of_week, status, intervals, "
        "start_date, recurring) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (schedule_id, kind, name, day_of_week, status, dumps(wire), start_date,
         _json_or_none(recurring)),
    )
    return int(cursor.lastrowid or 0)


def insert_anonymization_request(db: Database, *, type: str, target_entity_id: str,
                                 requested_by: str, initiated_at: str, id: str | None = None,
                                 processed_at: str | None = None) -> str:
    """An anonymisation request (``type`` Conversation, Message or User); queueing the work
    that processes it is the caller's business."""
    request_id = id or new_id()
    _insert(db, "anonymization_requests", {
        "id": request_id, "type": type, "target_entity_id": target_entity_id,
        "requested_by": requested_by, "initiated_at": initiated_at,
        "processed_at": processed_at,
    })
    return request_id
