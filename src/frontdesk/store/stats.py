"""Stats for supervisors: today and the last seven days of created, closed and waiting
conversations, median first response and CSAT, each with a value per day — computed from the
analytics records the service gives (one paged request per figure), so a tile's number and its
records table always agree.

Waiting is a history of the queue, not a count of arrivals: its records are the stays in a
queue that overlap the seven days (``queue_waits``: arrival, and when an agent took the
conversation or it was closed), and each day's value is how many stays had begun and not
ended at that day's end (midnight, local time; today: now).

The topic polls rarely (``STATS_INTERVAL``) at background priority: figures a supervisor
glances at should never slow down the inbox. ``choose`` sets the queue, channel and team
filters and fetches at once. No Textual here.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..api.models import FilterValue, MetricRecord
from ..api.pacing import Priority
from ..api.wire_time import parse_wire_time
from .errors import Refused, refusals

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["DAYS", "STATS_TOPIC", "TILES", "StatsSnapshot", "StatsWatch", "Tile"]

STATS_TOPIC = "stats"
#: Seconds between two refreshes of the figures.
STATS_INTERVAL = 120.0
#: Days in a tile's chart (today included).
DAYS = 7
#: Records read per figure at most (the rest are left out of the chart).
MAX_RECORDS = 5000
#: The filters a supervisor chooses from, by analytics attribute.
FILTERS = ("queue_id", "channel", "team_id")


@dataclass(frozen=True)
class TileSpec:
    """A tile: its analytics record set and how its records become one number."""

    metric: str
    title: str
    #: "count", "median" (of the values), "csat" (share of 4s and 5s) or "waiting" (stays
    #: in a queue going on at a moment)
    figure: str


TILES: tuple[TileSpec, ...] = (
    TileSpec("created_conversations", "Created", "count"),
    TileSpec("closed_conversations", "Closed", "count"),
    TileSpec("queue_waits", "Waiting", "waiting"),
    TileSpec("first_response_time", "First reply", "median"),
    TileSpec("csat", "CSAT", "csat"),
)


@dataclass(frozen=True)
class Tile:
    """A tile's figures: today, the last seven days, and one value per day (oldest first;
    None for a day without data). For waiting: now, the most at a day's end, and how many
    waited at each day's end."""

    spec: TileSpec
    today: float | None
    week: float | None
    series: tuple[float | None, ...]
    records: tuple[MetricRecord, ...] = ()


@dataclass(frozen=True)
class StatsSnapshot:
    """Every tile for one choice of filters."""

    tiles: tuple[Tile, ...]
    filters: tuple[tuple[str, str], ...]
    days: tuple[date, ...]
    truncated: bool = False


def figure(spec: TileSpec, records: list[MetricRecord]) -> float | None:
    """The one number a tile shows for ``records``."""
    if spec.figure == "count":
        return float(len(records))
    values = [float(r.value.value) for r in records
              if r.value is not None and isinstance(r.value.value, int | float)]
    if not values:
        return None
    if spec.figure == "median":
        return float(statistics.median(values))
    return 100.0 * sum(1 for v in values if v >= 4) / len(values)


def left_queue(record: MetricRecord) -> datetime | None:
    """When a stay in a queue ended (None: it goes on, or the service did not say)."""
    found = record.get("left_queue_at")
    if found is None or not isinstance(found.value, str):
        return None
    try:
        return parse_wire_time(found.value)
    except ValueError:
        return None


Stay = tuple[datetime, datetime | None]


def waiting_at(stays: list[Stay], moment: datetime) -> int:
    """How many stays in a queue (arrival, end or None) had begun by ``moment`` and not
    ended."""
    return sum(1 for arrived, left in stays
               if arrived <= moment and (left is None or left > moment))


def waiting_tile(spec: TileSpec, records: list[MetricRecord], days: tuple[date, ...],
                 now: datetime) -> Tile:
    """The waiting tile: how many wait now, and at the end of each day (local midnight;
    today's is now), and the most of those."""
    stays = [(r.primary_timestamp_field.timestamp, left_queue(r)) for r in records]
    series: list[float | None] = []
    for day in days:
        end = datetime.combine(day + timedelta(days=1), datetime.min.time()).astimezone()
        series.append(float(waiting_at(stays, min(end, now))))
    known = [v for v in series if v is not None]
    return Tile(spec, float(waiting_at(stays, now)), max(known) if known else None,
                tuple(series), tuple(reversed(records[-500:])))


@dataclass
class StatsWatch:
    """Registers the stats topic and fetches it."""

    hub: Hub
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    chosen: dict[str, str] = field(default_factory=dict)
    options: dict[str, list[FilterValue]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.hub.live.add(STATS_TOPIC, self._fetch, STATS_INTERVAL)

    @property
    def snapshot(self) -> StatsSnapshot | None:
        """The latest figures (None before the first fetch)."""
        value = self.hub.live.get(STATS_TOPIC)
        return value if isinstance(value, StatsSnapshot) else None

    async def filter_options(self) -> dict[str, list[FilterValue]]:
        """The values of each filter (queues, channels, teams), read once."""
        if not self.options:
            with refusals("Could not read the filters"):
                for attribute in FILTERS:
                    self.options[attribute] = await self.hub.client.analytics \
                        .filter_values(attribute, priority=Priority.VISIBLE)
        return self.options

    async def choose(self, attribute: str, value: str | None) -> None:
        """Filter by ``attribute`` (``None``: everything) and fetch now."""
        if attribute not in FILTERS:
            raise Refused(f"Stats cannot be filtered by {attribute}")
        if value:
            self.chosen[attribute] = value
        else:
            self.chosen.pop(attribute, None)
        await self.refresh()

    async def refresh(self) -> None:
        """Fetch the figures now (raises :class:`Refused`: the client's error, in its own
        line)."""
        with refusals(""):
            await self.hub.live.refresh(STATS_TOPIC)

    async def _fetch(self) -> StatsSnapshot:
        now = self.now()
        local_now = now.astimezone()
        today = local_now.date()
        days = tuple(today - timedelta(days=back) for back in range(DAYS - 1, -1, -1))
        midnight = local_now.replace(hour=0, minute=0, second=0, microsecond=0)
        start = midnight - timedelta(days=DAYS - 1)
        filters = [{"attribute": k, "values": [v]} for k, v in sorted(self.chosen.items())]
        tiles: list[Tile] = []
        truncated = False
        for spec in TILES:
            query: dict[str, Any] = {
                "id": spec.metric, "timezone": "UTC", "filters": filters,
                "periodFilter": {"_type": "Interval", "start": start.astimezone(UTC),
                                 "end": now + timedelta(seconds=1)}}
            records: list[MetricRecord] = []
            async for record in self.hub.client.analytics.records(
                    query, page_size=500, priority=Priority.BACKGROUND):
                records.append(record)
                if len(records) >= MAX_RECORDS:
                    truncated = True
                    break
            if spec.figure == "waiting":
                tiles.append(waiting_tile(spec, records, days, now))
                continue
            by_day: dict[date, list[MetricRecord]] = {day: [] for day in days}
            for record in records:
                day = record.primary_timestamp_field.timestamp.astimezone().date()
                if day in by_day:
                    by_day[day].append(record)
            today_value = figure(spec, by_day[today])
            recent = [r for day in days for r in by_day[day]]
            series = tuple(figure(spec, by_day[day]) if by_day[day] or spec.figure == "count"
                           else None for day in days)
            tiles.append(Tile(spec, today_value, figure(spec, recent), series,
                              tuple(reversed(records[-500:]))))
        return StatsSnapshot(tuple(tiles), tuple(sorted(self.chosen.items())), days, truncated)

