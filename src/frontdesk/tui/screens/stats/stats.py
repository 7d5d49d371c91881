"""Mode 6, Stats: for supervisors, today and the last seven days at a glance — created, closed
and waiting conversations, median first response and CSAT — each tile with a chart of one
value per day (for waiting: how many waited at the day's end); the records behind the chosen
tile below.

``left``/``right`` choose a tile, ``q``, ``c`` and ``t`` the queue, channel and team filters,
``r`` refreshes now. The figures come from the service's analytics, polled rarely at a
background priority (``store/stats.py``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal

from ....api.models import FilterValue, MetricRecord
from ....store.stats import DAYS, STATS_TOPIC, TILES, StatsWatch, Tile
from ....text import one_line, safe
from ... import clock
from ...answers import Answered, Returned, answer_of, refusal_of
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, Select, Static
from ..shared.base import ModeScreen
from ..shared.common import cell

ALL = "__all__"
_BARS = "▁▂▃▄▅▆▇█"
_FILTERS = (("queue_id", "Queue", "All queues"), ("channel", "Channel", "All channels"),
            ("team_id", "Team", "All teams"))


def spark(values: tuple[float | None, ...]) -> str:
    """One block per value, as high as the value against the largest (blank: no data)."""
    known = [v for v in values if v is not None]
    top = max(known) if known else 0.0
    out = []
    for value in values:
        if value is None:
            out.append(" ")
        elif top <= 0:
            out.append(_BARS[0])
        else:
            out.append(_BARS[min(len(_BARS) - 1, int(value / top * (len(_BARS) - 1) + 0.5))])
    return "".join(out)


def duration(seconds: float) -> str:
    """``45 s``, ``4 m 10 s``, ``2 h 5 m``, ``3 d 4 h``."""
    total = round(seconds)
    if total < 60:
        return f"{total} s"
    minutes, secs = divmod(total, 60)
    if minutes < 60:
        return f"{minutes} m {secs} s" if secs else f"{minutes} m"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} m" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def shown(tile: Tile, value: float | None, *, packed: bool = False) -> str:
    """A tile's number as people read it; ``packed``, a duration without its spaces
    (``38m18s``: on the tile, where it shares 14 cells with "today")."""
    if value is None:
        return "—"
    if tile.spec.figure == "median":
        return duration(value).replace(" ", "") if packed else duration(value)
    if tile.spec.figure == "csat":
        return f"{value:.0f} %"
    return f"{value:.0f}"


def tile_text(tile: Tile, chosen: bool) -> Text:
    """The lines of one tile, none longer than 14 cells (a tile's room at 80 columns).
    Waiting says what its numbers are: how many wait now, the most at a day's end in the
    seven days ("max 7 d"), and a chart of each day's end (24:00)."""
    waiting = tile.spec.figure == "waiting"
    text = Text()
    text.append(("▶ " if chosen else "") + tile.spec.title + "\n", style="bold")
    text.append(shown(tile, tile.today, packed=True), style="bold cyan")
    text.append("  now\n" if waiting else "  today\n", style="dim")
    text.append(shown(tile, tile.week, packed=True) + "  ", style="bold")
    text.append("max 7 d\n" if waiting else "7 d\n", style="dim")
    text.append(spark(tile.series), style="green")
    if waiting:
        text.append(" 24:00", style="dim")
    return text


def _field(record: MetricRecord, name: str) -> str:
    found = record.get(name)
    if found is None:
        return ""
    return str(found.label or found.value or "")


@owns_bindings
class StatsScreen(ModeScreen):
    """Stats mode: tiles with charts, filters, and the records behind the chosen tile."""

    MODE_NAME = "Stats"
    HELP_NAME = "Stats"
    TOPICS = (STATS_TOPIC,)
    BINDINGS: ClassVar[list[Any]] = [
        Binding("left", "tile(-1)", "Previous tile", id="stats.previous"),
        Binding("right", "tile(1)", "Next tile", id="stats.next"),
        Binding("q", "filter('queue_id')", "Queue", id="stats.queue"),
        Binding("c", "filter('channel')", "Channel", id="stats.channel"),
        Binding("t", "filter('team_id')", "Team", id="stats.team"),
        Binding("r", "refresh", "Refresh", id="stats.refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._watch: StatsWatch | None = None
        self.chosen = 0
        #: each filter value's label, by (attribute, value): the info line names the choice
        self._labels: dict[tuple[str, str], str] = {}

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="stats-filters"):
            for attribute, _, everything in _FILTERS:
                yield Select[str]([(everything, ALL)], value=ALL, allow_blank=False,
                                  compact=True, id=f"stats-{attribute}")
            yield Static("Loading…", id="stats-info")
        with Horizontal(id="stats-tiles"):
            for spec in TILES:
                yield Static("", id=f"tile-{spec.metric}", classes="stats-tile")
        yield Static("", id="stats-records-title")
        table: DataTable[Any] = DataTable(id="stats-records", cursor_type="row",
                                          zebra_stripes=True)
        # "#" rather than "Conversation": the six columns fit 80 columns with their values
        table.add_columns("When", "#", "Channel", "Queue", "Agent", "Value")
        yield table

    def _attach_store(self) -> StatsWatch | None:
        session = self.fd.session
        if self._watch is None and session is not None:
            self._watch = session.stats
            self._watch.now = clock.now
        return self._watch

    def on_mount(self) -> None:
        super().on_mount()
        self._attach_store()
        self._load_filters()
        self.query_one("#stats-records", DataTable).focus()

    def on_screen_resume(self) -> None:
        self._attach_store()
        super().on_screen_resume()
        self._paint()

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """New figures: paint them."""
        if message.topic == STATS_TOPIC:
            self._paint()

    @work(exclusive=True, group="stats-filters", exit_on_error=False)
    async def _load_filters(self) -> None:
        watch = self._attach_store()
        if watch is None:
            return
        self.post_message(self.FiltersRead(*await answer_of(watch.filter_options())))

    class FiltersRead(Returned[dict[str, list[FilterValue]]]):
        """The values of each filter were read."""

    def on_stats_screen_filters_read(self, message: FiltersRead) -> None:
        """The filters' choices, or why they could not be read on the info line."""
        watch = self._watch
        if message.refusal is not None:
            self.query_one("#stats-info", Static).update(safe(message.refusal.reason))
            return
        if watch is None:
            return
        options = message.value
        for attribute, _, everything in _FILTERS:
            select = self.query_one(f"#stats-{attribute}", Select)
            choices: list[tuple[Text, str]] = [(Text(everything), ALL)]
            choices += [(Text(one_line(v.label or v.value, 30)), v.value)
                        for v in options.get(attribute, [])]
            self._labels.update(((attribute, v.value), one_line(v.label or v.value, 30))
                                for v in options.get(attribute, []))
            with select.prevent(Select.Changed):
                select.set_options(choices)
                select.value = watch.chosen.get(attribute, ALL)

    # ------------------------------------------------------------------ painting

    def _paint(self) -> None:
        watch = self._watch
        snapshot = watch.snapshot if watch is not None else None
        if snapshot is None:
            return
        for index, tile in enumerate(snapshot.tiles):
            widget = self.query_one(f"#tile-{tile.spec.metric}", Static)
            widget.update(tile_text(tile, index == self.chosen))
            widget.set_class(index == self.chosen, "-chosen")
        first, last = snapshot.days[0], snapshot.days[-1]
        titles = {attribute: title for attribute, title, _ in _FILTERS}
        filters = ", ".join(f"{titles.get(name, name)}: {self._labels.get((name, value), value)}"
                            for name, value in snapshot.filters)
        info = (f"{first:%d %b} to {last:%d %b} ({DAYS} days) · updated "
                f"{clock.shown(clock.now())} · r refreshes"
                + (f" · {filters}" if filters else "")
                + (" · some records left out" if snapshot.truncated else ""))
        self.query_one("#stats-info", Static).update(safe(info))
        self._paint_records(snapshot.tiles[self.chosen])

    def _paint_records(self, tile: Tile) -> None:
        if tile.spec.figure == "waiting":
            title = (f"Waiting at each day's end (the chart; today: now) · the latest "
                     f"{len(tile.records)} stays in a queue, newest first")
        else:
            what = f"{tile.spec.title} (the median)" if tile.spec.figure == "median" \
                else tile.spec.title
            title = f"{what}: the latest {len(tile.records)} records, newest first"
        self.query_one("#stats-records-title", Static).update(safe(title))
        table = self.query_one("#stats-records", DataTable)
        table.clear()
        for index, record in enumerate(tile.records[:200]):
            value = record.value.value if record.value is not None else None
            amount = shown(tile, float(value)) if isinstance(value, int | float) \
                and tile.spec.figure == "median" else ("" if value is None else str(value))
            if tile.spec.figure == "waiting" and isinstance(value, int | float):
                amount = duration(float(value))
            table.add_row(
                Text(clock.shown(record.primary_timestamp_field.timestamp, "day")),
                cell(_field(record, "csid"), 12), cell(_field(record, "initial_channel"), 16),
                cell(_field(record, "queue"), 20), cell(_field(record, "agent"), 20),
                cell(amount, 14), key=str(index))

    # ------------------------------------------------------------------ actions

    def action_tile(self, step: int) -> None:
        """Choose the tile whose records are shown."""
        self.chosen = (self.chosen + step) % len(TILES)
        self._paint()

    def action_filter(self, attribute: str) -> None:
        """Open a filter's list."""
        select = self.query_one(f"#stats-{attribute}", Select)
        select.focus()
        select.expanded = True

    def action_refresh(self) -> None:
        """Fetch the figures now."""
        self._refresh()

    @on(Select.Changed)
    def _filtered(self, event: Select.Changed) -> None:
        attribute = (event.select.id or "").removeprefix("stats-")
        value = event.value if isinstance(event.value, str) and event.value != ALL else None
        self._choose(attribute, value)
        self.query_one("#stats-records", DataTable).focus()

    @work(exclusive=True, group="stats-fetch", exit_on_error=False)
    async def _choose(self, attribute: str, value: str | None) -> None:
        watch = self._attach_store()
        if watch is None:
            return
        self.query_one("#stats-info", Static).update("Fetching…")
        self.post_message(self.Fetched(await refusal_of(watch.choose(attribute, value))))

    @work(exclusive=True, group="stats-fetch", exit_on_error=False)
    async def _refresh(self) -> None:
        watch = self._attach_store()
        if watch is None:
            return
        self.post_message(self.Fetched(await refusal_of(watch.refresh())))

    class Fetched(Answered):
        """The figures were fetched now, for a filter's new value or a refresh (or why
        not)."""

    def on_stats_screen_fetched(self, message: Fetched) -> None:
        """The figures, or why not on the info line."""
        if message.reason is not None:
            self.query_one("#stats-info", Static).update(safe(one_line(message.reason, 120)))
            return
        self._paint()
