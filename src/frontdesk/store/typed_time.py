"""The one grammar of a time a person types.

``+2h``, ``+30m``, ``+1d``, ``+1h30m`` (from now); ``14:30`` (today, or its next occurrence
when asked for); ``today 14:30``, ``tomorrow 09:00``, ``mon 10:00`` (the next Monday, today
included); ``2026-01-15 12:30``, ``2026-01-15`` (midnight); an ISO time with its own offset
(``2026-01-15T12:30:00Z``). A time without an offset is read in ``zone`` (the system's own
local time when None). What does not read is a :class:`~frontdesk.store.errors.Refused`
saying what would.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from ..text import one_line
from .errors import Refused

__all__ = ["EXAMPLES", "parse_typed_time"]

#: what the refusals suggest
EXAMPLES = "+2h, 14:30, tomorrow 09:00, mon 10:00 or 2026-01-15 12:30"

_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_RELATIVE = re.compile(r"^\+\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$",
                       re.IGNORECASE)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


def parse_typed_time(text: str, zone: tzinfo | None, now: datetime, *,
                     next_clock: bool = False) -> datetime:
    """The aware moment ``text`` names, ``now`` being the present (aware). ``next_clock``
    reads a bare ``HH:MM`` that has passed today as tomorrow's."""
    raw = " ".join(text.split())
    if not raw:
        raise Refused(f"Type a time, like {EXAMPLES}")
    relative = _RELATIVE.match(raw)
    if relative is not None and any(relative.groups()):
        days, hours, minutes = (int(g or 0) for g in relative.groups())
        try:
            return now + timedelta(days=days, hours=hours, minutes=minutes)
        except OverflowError:
            raise Refused(f"'{one_line(raw, 40)}' is too far away") from None
    local_now = now.astimezone(zone) if zone is not None else now.astimezone()
    day = local_now.date()
    words = raw.lower().split()
    if len(words) == 2 and words[0] in ("today", "tomorrow"):
        day += timedelta(days=1 if words[0] == "tomorrow" else 0)
    elif len(words) == 2 and words[0][:3] in _DAYS:
        day += timedelta(days=(_DAYS.index(words[0][:3]) - day.weekday()) % 7)
    elif len(words) == 1 and _CLOCK.match(words[0]):
        moment = _at(day, words[0], zone)
        if next_clock and moment <= now:
            moment = _at(day + timedelta(days=1), words[0], zone)
        return moment
    else:
        return _absolute(raw, zone)
    return _at(day, words[1], zone)


def _at(day: date, clock: str, zone: tzinfo | None) -> datetime:
    """``day`` at ``clock`` (``HH:MM``) in ``zone``."""
    match = _CLOCK.match(clock)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise Refused(f"'{one_line(clock, 20)}' is not a time of day (HH:MM)")
    return _zoned(datetime.combine(day, time(int(match[1]), int(match[2]))), zone)


def _absolute(raw: str, zone: tzinfo | None) -> datetime:
    """A date and time, with or without an offset."""
    try:
        parsed = datetime.fromisoformat(raw.upper().replace("Z", "+00:00"))
    except ValueError:
        raise Refused(f"'{one_line(raw, 40)}' is not a time I can read: try {EXAMPLES}"
                      ) from None
    return parsed.astimezone(UTC) if parsed.tzinfo else _zoned(parsed, zone)


def _zoned(naive: datetime, zone: tzinfo | None) -> datetime:
    """A wall-clock time in ``zone`` (the system's local time when None), aware."""
    return naive.replace(tzinfo=zone) if zone is not None else naive.astimezone()
