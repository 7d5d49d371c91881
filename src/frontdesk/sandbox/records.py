"""Writing whole records into the sandbox's database: used by routes, the seed, the simulator
and the tests' factories, so there is one place that knows each table's columns.

Each function takes the database, writes inside the caller's transaction, and returns the
new row's id. Times are stored ``…Z`` text (``db.iso``).
"""

from __future__ import annotations

import uuid
from typing import Any

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
