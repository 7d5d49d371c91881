"""Time as the business counts it: how much of a span fell within a schedule's open hours.

A customer who wrote at 17:55 on a Friday has not waited a weekend of neglect by Monday
08:05: the inbox's wait (its Turn column and the wait's colours) counts open hours only when
the organisation has a business-hours schedule (the one the header shows), and plain time
otherwise.

The rules are read from the service's schedule definition as the service applies them: a
weekly ``Regular`` rule per weekday (the latest one started by a day decides it), and dated
``Exception`` and ``Holiday`` rules that replace the weekly one on the day they fall on: their
``startDate``, or every year from then on when ``recurring`` (on its ``dayOfMonth`` and
``monthOfYear``, each defaulting to the start date's, or on a named movable holiday counted
from Easter). Where two dated rules fall on one day, a one-off beats a recurring one, an
Exception beats a Holiday, then the later one wins. An ``Open`` rule without intervals is open
all day, a ``Closed`` one closed all day, a day without a rule closed. Hours are wall-clock
times in the schedule's time zone (``24:00`` is the day's end), so their instants move with
daylight saving time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from .hours_calendar import zone_named

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

    from ..api.models import BusinessHourEntry, ScheduleDefinition

__all__ = ["BusinessTime"]

#: the longest span counted day by day (a longer one counts its last this many days only:
#: the wait shown is then "weeks" whatever the hours)
DAYS_COUNTED = 120
#: days whose open intervals are kept (a screenful of rows asks for the same few days)
DAYS_KEPT = 512
#: movable holidays: days after Easter Sunday (names compared without case, spaces or marks)
EASTER_OFFSETS = {"maundythursday": -3, "goodfriday": -2, "easter": 0, "eastersunday": 0,
                  "eastermonday": 1, "ascension": 39, "ascensionday": 39, "pentecost": 49,
                  "whitsun": 49, "whitsunday": 49, "whitmonday": 50}

Interval = tuple[datetime, datetime]


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


def _minutes(text: str) -> int | None:
    """Minutes after midnight of ``HH:MM`` (``24:00`` allowed); None when it is not one."""
    hours, sep, minutes = text.partition(":")
    if not (sep and hours.isdigit() and minutes.isdigit()):
        return None
    value = int(hours) * 60 + int(minutes)
    return value if int(minutes) < 60 and value <= 24 * 60 else None


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


@dataclass(frozen=True)
class _Rule:
    """One rule of the definition, read once."""

    kind: str
    is_open: bool
    start: date | None
    #: open spans in minutes after the day's midnight (empty and open: all day)
    spans: tuple[tuple[int, int], ...]
    weekday: int | None = None
    recurring: tuple[int | None, int | None, str | None] | None = None

    @classmethod
    def of(cls, entry: BusinessHourEntry) -> _Rule:
        spans: list[tuple[int, int]] = []
        for interval in entry.intervals:
            start, end = _minutes(interval.start_time), _minutes(interval.end_time)
            if start is not None and end is not None and end > start:
                spans.append((start, end))
        merged: list[tuple[int, int]] = []
        for start, end in sorted(spans):  # overlapping intervals count once
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        recurring = entry.recurring
        return cls(entry.business_hour_type, entry.status == "Open", _day(entry.start_date),
                   tuple(merged), entry.day_of_week,
                   None if recurring is None else (recurring.day_of_month,
                                                    recurring.month_of_year, recurring.holiday))

    def falls_on(self, day: date) -> bool:
        """Whether this dated rule applies on ``day``."""
        start = self.start
        if start is not None and day < start:
            return False
        if self.recurring is None:
            return day == start
        day_of_month, month, holiday = self.recurring
        key = "".join(ch for ch in (holiday or "").lower() if ch.isalnum())
        if key in EASTER_OFFSETS:
            return day == easter(day.year) + timedelta(days=EASTER_OFFSETS[key])
        month = month or (start.month if start is not None else None)
        day_of_month = day_of_month or (start.day if start is not None else None)
        return (day.month, day.day) == (month, day_of_month)

    @property
    def rank(self) -> tuple[bool, bool]:
        """Among dated rules on one day: a one-off beats a recurring one, then an Exception
        a Holiday."""
        return (self.recurring is None, self.kind == "Exception")


class BusinessTime:
    """A schedule's open hours, to count how much of a span the business was open."""

    def __init__(self, zone: ZoneInfo, regular: Iterable[_Rule], dated: Iterable[_Rule]) -> None:
        self.zone = zone
        self._regular = [r for r in regular if r.weekday is not None]
        self._dated = list(dated)
        self._days: dict[date, tuple[Interval, ...]] = {}

    @classmethod
    def of(cls, definition: ScheduleDefinition) -> BusinessTime | None:
        """The schedule's hours (None when its time zone is unknown here: the plain wait is
        shown then)."""
        zone = zone_named(definition.timezone)
        if zone is None:
            return None
        entries = [*definition.business_hours, *definition.exceptions]
        return cls(zone,
                   (_Rule.of(e) for e in entries if e.business_hour_type == "Regular"),
                   (_Rule.of(e) for e in entries if e.business_hour_type != "Regular"))

    def _rule_for(self, day: date) -> _Rule | None:
        """The rule deciding a local day: a dated one falling on it, else the weekly one."""
        dated: _Rule | None = None
        for rule in self._dated:
            if rule.falls_on(day) and (dated is None or rule.rank >= dated.rank):
                dated = rule
        if dated is not None:
            return dated
        weekday = day.isoweekday()
        regular: _Rule | None = None
        for rule in self._regular:
            if rule.weekday == weekday and (rule.start is None or rule.start <= day) and (
                    regular is None or regular.start is None
                    or (rule.start is not None and rule.start >= regular.start)):
                regular = rule
        return regular

    def open_on(self, day: date) -> tuple[Interval, ...]:
        """The open intervals of a local day, as UTC instants in order (none: closed)."""
        kept = self._days.get(day)
        if kept is not None:
            return kept
        rule = self._rule_for(day)
        intervals: tuple[Interval, ...] = ()
        if rule is not None and rule.is_open:
            spans = rule.spans or ((0, 24 * 60),)
            intervals = tuple((self._instant(day, start), self._instant(day, end))
                              for start, end in spans)
        if len(self._days) >= DAYS_KEPT:
            self._days.clear()
        self._days[day] = intervals
        return intervals

    def _instant(self, day: date, minutes: int) -> datetime:
        extra, minutes = divmod(minutes, 24 * 60)
        local = datetime.combine(day + timedelta(days=extra), time(minutes // 60, minutes % 60),
                                 tzinfo=self.zone)
        return local.astimezone(UTC)

    def seconds_between(self, start: datetime, end: datetime) -> float:
        """How many seconds of ``start``..``end`` the business was open (0 when ``end`` is
        not after ``start``; a span longer than :data:`DAYS_COUNTED` days counts its last
        days only)."""
        if end <= start:
            return 0.0
        start = max(start, end - timedelta(days=DAYS_COUNTED))
        day = start.astimezone(self.zone).date()
        last = end.astimezone(self.zone).date()
        total = 0.0
        while day <= last:
            for opens, closes in self.open_on(day):
                overlap = (min(closes, end) - max(opens, start)).total_seconds()
                if overlap > 0:
                    total += overlap
            day += timedelta(days=1)
        return total
