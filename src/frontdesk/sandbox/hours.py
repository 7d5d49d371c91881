"""Business-hours calendar arithmetic: pure functions over a schedule's rules, no database.

A schedule has weekly ``Regular`` rules (one per weekday, each valid from its ``start_date``;
the latest one started wins) and dated ``Exception``/``Holiday`` rules that replace the
regular day they fall on. A dated rule falls on its ``start_date``, or, when ``recurring``,
every year from then on: on ``dayOfMonth``/``monthOfYear`` (each defaulting to the start
date's), or on a named movable holiday (Easter and the feasts that follow it).

Where two dated rules fall on one day, a one-off rule beats a recurring one, an Exception beats
a Holiday, and then the later rule in the list wins. An ``Open`` rule without intervals is open
all day; a ``Closed`` rule is closed all day.

Hours are local wall-clock times in the schedule's IANA zone (``zoneinfo``), so the UTC
instants of "09:00" move with daylight saving time; ``24:00`` is the end of the day.
A wall-clock time skipped by a DST change resolves to the same offset as before the change.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

REGULAR = "Regular"
EXCEPTION = "Exception"
HOLIDAY = "Holiday"
OPEN = "Open"
CLOSED = "Closed"

#: How far ahead ``status`` looks for the next opening (days).
SEARCH_DAYS = 400

Interval = tuple[datetime, datetime]


@dataclass(frozen=True, eq=False)
class Rule:
    """One rule of a schedule, as stored (intervals as ``("HH:MM", "HH:MM")`` pairs)."""

    kind: str
    name: str
    status: str
    start_date: date
    intervals: tuple[tuple[str, str], ...] = ()
    day_of_week: int | None = None
    recurring: Mapping[str, Any] | None = None

    @property
    def is_open(self) -> bool:
        """Whether the rule opens the business at all that day."""
        return self.status == OPEN


@dataclass(frozen=True, eq=False)
class Schedule:
    """A schedule's zone and rules (regular and dated together, in definition order)."""

    timezone: str
    rules: tuple[Rule, ...]

    @property
    def zone(self) -> ZoneInfo:
        """The schedule's time zone."""
        return ZoneInfo(self.timezone)


@dataclass(frozen=True)
class Status:
    """Open or closed at an instant; when it closes (if open) or next opens (if closed).

    ``closes_at`` is None when the business stays open past the search horizon, ``opens_at``
    when it does not open again within it.
    """

    is_open: bool
    opens_at: datetime | None
    closes_at: datetime | None


def parse_clock(text: str) -> int:
    """Minutes after midnight of an ``HH:MM`` time (``24:00`` allowed); ValueError if bad."""
    hours, sep, minutes = text.partition(":")
    if not (sep and len(hours) == 2 and len(minutes) == 2 and hours.isdigit()
            and minutes.isdigit()):
        raise ValueError(f"not an HH:MM time: {text!r}")
    value = int(hours) * 60 + int(minutes)
    if int(minutes) > 59 or value > 24 * 60:
        raise ValueError(f"not a time of day: {text!r}")
    return value


def valid_zone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone this system knows."""
    try:
        ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return False
    return True


# ------------------------------------------------------------------------ movable holidays


def easter(year: int) -> date:
    """Easter Sunday of the Gregorian calendar (the anonymous Gregorian algorithm)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(year, month, day + 1)


#: Named movable holidays: days after Easter Sunday.
EASTER_OFFSETS = {
    "maundythursday": -3,
    "goodfriday": -2,
    "easter": 0,
    "eastersunday": 0,
    "eastermonday": 1,
    "ascension": 39,
    "ascensionday": 39,
    "pentecost": 49,
    "whitsun": 49,
    "whitsunday": 49,
    "whitmonday": 50,
}


def _holiday_key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _on_in_year(rule: Rule, year: int) -> date | None:
    """The day a recurring rule falls on in ``year`` (None when it has none that year)."""
    recurring = rule.recurring or {}
    holiday = recurring.get("holiday")
    if isinstance(holiday, str) and _holiday_key(holiday) in EASTER_OFFSETS:
        return easter(year) + timedelta(days=EASTER_OFFSETS[_holiday_key(holiday)])
    month = recurring.get("monthOfYear") or rule.start_date.month
    day = recurring.get("dayOfMonth") or rule.start_date.day
    try:
        return date(year, int(month), int(day))
    except ValueError:  # 29 February in a common year, or a bad stored value
        return None


def falls_on(rule: Rule, day: date) -> bool:
    """Whether a dated (Exception or Holiday) rule applies on ``day``."""
    if day < rule.start_date:
        return False
    if rule.recurring is None:
        return day == rule.start_date
    return _on_in_year(rule, day.year) == day


def next_occurrence(rule: Rule, today: date) -> date | None:
    """The first day from ``today`` on which a dated rule applies (None if never again)."""
    if rule.recurring is None:
        return rule.start_date if rule.start_date >= today else None
    first = max(today, rule.start_date)
    for year in range(first.year, first.year + 9):  # 29 February comes back within 8 years
        day = _on_in_year(rule, year)
        if day is not None and day >= first:
            return day
    return None


# ------------------------------------------------------------------------ resolving a day


def rule_for(schedule: Schedule, day: date) -> Rule | None:
    """The rule that decides ``day``: a dated rule falling on it, else the weekly one."""
    dated: Rule | None = None
    for rule in schedule.rules:
        if rule.kind == REGULAR or not falls_on(rule, day):
            continue
        if dated is None or _rank(rule) >= _rank(dated):
            dated = rule
    if dated is not None:
        return dated
    regular: Rule | None = None
    weekday = day.isoweekday()
    for rule in schedule.rules:
        if (rule.kind == REGULAR and rule.day_of_week == weekday and rule.start_date <= day
                and (regular is None or rule.start_date >= regular.start_date)):
            regular = rule
    return regular


def _rank(rule: Rule) -> tuple[int, int]:
    return (rule.recurring is None, rule.kind == EXCEPTION)


def _instant(day: date, minutes: int, zone: ZoneInfo) -> datetime:
    extra, minutes = divmod(minutes, 24 * 60)
    local = datetime.combine(day + timedelta(days=extra), time(minutes // 60, minutes % 60),
                             tzinfo=zone)
    return local.astimezone(UTC)


def day_intervals(schedule: Schedule, day: date, zone: ZoneInfo | None = None
                  ) -> list[Interval]:
    """The open intervals of a local ``day`` as UTC instants, in order (none when closed)."""
    rule = rule_for(schedule, day)
    if rule is None or not rule.is_open:
        return []
    zone = zone or schedule.zone
    pairs = rule.intervals or (("00:00", "24:00"),)
    out: list[Interval] = []
    for start_text, end_text in pairs:
        start = _instant(day, parse_clock(start_text), zone)
        end = _instant(day, parse_clock(end_text), zone)
        if end > start:
            out.append((start, end))
    out.sort()
    return out


def upcoming(schedule: Schedule, today: date, days: int) -> list[tuple[date, Rule]]:
    """The open days among ``today`` and the ``days - 1`` after it, with their deciding rule."""
    out: list[tuple[date, Rule]] = []
    for offset in range(days):
        day = today + timedelta(days=offset)
        rule = rule_for(schedule, day)
        if rule is not None and rule.is_open:
            out.append((day, rule))
    return out


def local_today(schedule: Schedule, at: datetime) -> date:
    """The schedule's local date at the instant ``at``."""
    return at.astimezone(schedule.zone).date()


def _merged(schedule: Schedule, first: date, last: date) -> Iterator[Interval]:
    """Open intervals of the days ``first``..``last``, touching or overlapping ones joined."""
    zone = schedule.zone
    pending: Interval | None = None
    day = first
    while day <= last:
        for start, end in day_intervals(schedule, day, zone):
            if pending is not None and start <= pending[1]:
                pending = (pending[0], max(pending[1], end))
                continue
            if pending is not None:
                yield pending
            pending = (start, end)
        day += timedelta(days=1)
    if pending is not None:
        yield pending


def status(schedule: Schedule, at: datetime) -> Status:
    """Whether the business is open at ``at``; when open, the end of the current open period
    (adjacent intervals count as one); when closed, the start of the next one."""
    at = at.astimezone(UTC)
    first = local_today(schedule, at) - timedelta(days=1)
    last = first + timedelta(days=SEARCH_DAYS + 1)
    horizon = _instant(last, 24 * 60, schedule.zone)
    for start, end in _merged(schedule, first, last):
        if end <= at:
            continue
        if start <= at:
            return Status(True, None, None if end >= horizon else end)
        return Status(False, start, None)
    return Status(False, None, None)


# ------------------------------------------------------------------------ from stored data


def rule_from_row(*, kind: str, name: str, status: str, start_date: str,
                  intervals: Sequence[Mapping[str, str]], day_of_week: int | None,
                  recurring: Mapping[str, Any] | None) -> Rule:
    """A rule from its stored form (intervals in wire form, dates ``YYYY-MM-DD``)."""
    return Rule(
        kind=kind, name=name, status=status, start_date=date.fromisoformat(start_date),
        intervals=tuple((i["startTime"], i["endTime"]) for i in intervals),
        day_of_week=day_of_week, recurring=recurring,
    )
