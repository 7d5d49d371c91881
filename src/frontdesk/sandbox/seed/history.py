"""The seeded conversations' history: the activity log entries each conversation's life would
have left — created, claimed, every message, its tags, a follow-up, closed, a rating offered
and given — so a seeded conversation's history (``h`` in a thread) and the organisation's
activity read as if the service had recorded them as they happened.

Entries are written in time order (the log lists them in the order written) with one
``executemany``, before the anonymisations, which scrub them like any other. Ids come from a
generator of their own, so the rest of the demo is what it was without them. The large
organisation's 100,000 extra conversations have none: their seed is a benchmark's, kept fast.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from ..db import dumps
from .names import CONVERSATION_COLUMNS
from .state import DemoState, Person, Plan

_COLUMN = {name: index for index, name in enumerate(CONVERSATION_COLUMNS)}
#: One entry: its time, conversation, kind, author and attributes (None: none; a message's
#: id alone: ``{"messageId": …}``).
Entry = tuple[str, int, str, str | None, dict[str, Any] | str | None]


#: The order of entries written at the same moment (anything else comes after these).
_RANK = {"ConversationCreatedByCustomer": 0, "ConversationCreatedByAgent": 0,
         "MessageAddedByCustomer": 1, "MessageAddedByAgent": 1}


def _attributes(details: dict[str, Any] | str | None) -> str | None:
    """An entry's attributes as stored (a message's, the most of them, written directly)."""
    if details is None:
        return None
    if isinstance(details, str):
        return '{"messageId":"' + details + '"}'
    return dumps(details)


def _ids(rng: random.Random) -> Iterator[str]:
    """Version-4 UUIDs that rise (one random prefix, then a count), so the log's unique
    index takes them in order: random ones would each land somewhere in it."""
    bits = f"{rng.getrandbits(72):018x}"
    prefix = f"{bits[:8]}-{bits[8:12]}-4{bits[12:15]}-8{bits[15:18]}-"
    start = rng.getrandbits(40)
    return (f"{prefix}{start + n:012x}" for n in itertools.count())


def _person(person: Person) -> dict[str, Any]:
    """A person as the log names them (as ``activity.person`` does)."""
    out: dict[str, Any] = {"id": person.id, "name": person.name}
    if person.email:
        out["email"] = person.email
    if person.phone:
        out["phoneNumber"] = person.phone
    return out


class History(DemoState):
    """Writes the activity log of the seeded conversations."""

    def _history(self, conversations: list[tuple[Any, ...]],
                 written: list[tuple[int, Plan, Person, str | None]],
                 messages: list[tuple[Any, ...]], tags: list[tuple[int, str, str]],
                 ratings: list[dict[str, Any]]) -> None:
        """Write every seeded conversation's entries (rows as the seed wrote them)."""
        names = {str(r["id"]): str(r["name"]) for r in self.db.all("SELECT id, name FROM tags")}
        entries = list(self._lives(conversations, written))
        for message_id, cid, author, _external, at, direction, _body, _text in messages:
            kind = "MessageAddedByAgent" if direction == "Outbound" else "MessageAddedByCustomer"
            entries.append((at, cid, kind, author, message_id))
        agent_of = {cid: plan.agent for cid, plan, _requester, _closed in written}
        for cid, tag_id, at in dict.fromkeys(tags):  # a tag drawn twice is applied once
            agent = agent_of.get(cid)
            entries.append((at, cid, "TagAdded", agent.id if agent else None,
                            {"tag": names.get(tag_id, tag_id)}))
        people = {plan.agent.id: plan.agent for _cid, plan, _r, _c in written if plan.agent}
        for rating in ratings:
            agent = people.get(rating["agent_id"])
            entries.append((rating["offered_at"], rating["conversation_id"],
                            "ConversationRatingOffered", None,
                            {"agent": _person(agent) if agent else {"id": rating["agent_id"]},
                             "user": {"id": rating["user_id"]}}))
            if rating["score"] is not None and rating["submitted_at"] is not None:
                given: dict[str, Any] = {
                    "agent": _person(agent) if agent else {"id": rating["agent_id"]},
                    "score": rating["score"]}
                if rating["comment"]:
                    given["message"] = rating["comment"]
                entries.append((rating["submitted_at"], rating["conversation_id"],
                                "ConversationRated", rating["user_id"], given))
        # at one moment: the creation, then the customer's first words, then the rest
        entries.sort(key=lambda e: (e[0], _RANK.get(e[2], 2)))
        self.db.conn.executemany(
            "INSERT INTO activity_log (id, conversation_id, at, type, author_id, attributes) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(entry_id, cid, at, kind, author, _attributes(details))
             for entry_id, (at, cid, kind, author, details)
             in zip(_ids(random.Random("activity log")), entries, strict=False)])

    def _lives(self, conversations: list[tuple[Any, ...]],
               written: list[tuple[int, Plan, Person, str | None]]) -> Iterator[Entry]:
        """Created, claimed, followed up and closed, as each conversation's row says."""
        for row, (cid, plan, requester, closed_at) in zip(conversations, written, strict=True):
            agent = plan.agent.id if plan.agent else None
            subject = row[_COLUMN["subject"]]
            created = row[_COLUMN["created_at"]]
            if plan.outbound:
                yield (created, cid, "ConversationCreatedByAgent", agent,
                       {"subject": subject} if subject else None)
            else:
                yield (created, cid, "ConversationCreatedByCustomer", requester.id,
                       {"subject": subject} if subject else None)
                if agent is not None:
                    yield row[_COLUMN["assigned_at"]], cid, "ConversationClaimed", agent, None
            if plan.state == "Pending":
                yield row[_COLUMN["state_updated_at"]], cid, "FollowupAdded", agent, None
            if closed_at is not None:
                yield closed_at, cid, "ConversationClosed", agent, None
