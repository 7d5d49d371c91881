"""Where the inbox's poll stood when the console last closed, so the next start goes on from
there instead of reading Mine and Queue again.

A console that closes keeps, beside its rows, tags and previews:

* **the poll cursor**: the service's time from which a "what changed since" search finds every
  conversation with activity the local store does not reflect yet. It is kept only when it
  was read from the service's clock (measured against its business-hours status): a cursor
  taken from this machine's clock alone could stand after the service's and hide changes;
* **which views were complete**: Mine (for which agent) and Queue (for which queues). A start
  as the same agent whose queues are among those asks only what changed since the cursor;
  another agent, or a queue joined since, has that view read whole again, as a first start
  does;
* **what was still to be read**: records, tags and last messages the poll had found but not
  fetched yet (their change is before the cursor, so nothing else would find them again).

Every state change of a conversation moves its last activity (claim, transfer, close, reopen,
follow-up, a message), so the search since the cursor sees a conversation closed, taken or
answered while the console was away; a start that finds more changed than a few pages hold
reads Mine and Queue whole again instead (:data:`SINCE_PAGES`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

#: pages of "what changed since" read in one tick before Mine and Queue are read whole again
#: instead (a start after a long absence in a busy organisation)
SINCE_PAGES = 5


class InboxCursor(NamedTuple):
    """The poll's position as kept in the inbox's snapshot (see the module's docstring); a
    NamedTuple, as it is read before the first frame (no generated methods to compile)."""

    #: the service's time the next "what changed since" search starts from
    since: datetime | None = None
    #: the agent whose Mine was read whole ('' when it was not)
    mine_of: str = ""
    #: the queues whose waiting conversations were read whole
    queues: frozenset[str] = frozenset()
    #: conversations whose record, tags or last message was still to be read
    records: tuple[int, ...] = ()
    tags: tuple[int, ...] = ()
    previews: tuple[int, ...] = ()

    @classmethod
    def of(cls, cached: dict[str, Any]) -> InboxCursor:
        """The cursor kept in the snapshot ``cached`` (an empty one when it holds none or
        something unreadable: the start then reads Mine and Queue whole)."""
        kept = cached.get("cursor")
        if not isinstance(kept, dict):
            return cls()
        try:
            since = datetime.fromisoformat(str(kept["since"]))
        except (KeyError, TypeError, ValueError):
            return cls()
        if since.tzinfo is None:
            return cls()
        mine_of = kept.get("mine_of")
        queues = kept.get("queues")
        return cls(since=since,
                   mine_of=mine_of if isinstance(mine_of, str) else "",
                   queues=frozenset(q for q in queues if isinstance(q, str))
                   if isinstance(queues, list) else frozenset(),
                   records=_ids(kept.get("records")), tags=_ids(kept.get("tags")),
                   previews=_ids(kept.get("previews")))

    def snapshot(self) -> dict[str, Any] | None:
        """The cursor as the snapshot keeps it (None without a position to keep)."""
        if self.since is None:
            return None
        return {"since": self.since.isoformat(), "mine_of": self.mine_of,
                "queues": sorted(self.queues), "records": list(self.records),
                "tags": list(self.tags), "previews": list(self.previews)}


def _ids(value: object) -> tuple[int, ...]:
    """The conversation ids of a kept list (anything else in it is dropped)."""
    if not isinstance(value, list):
        return ()
    return tuple(item for item in value if isinstance(item, int) and not isinstance(item, bool))
