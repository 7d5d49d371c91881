"""Admin → Business hours: the schedules; for the highlighted one, open or closed now, its
definition (weekly hours, exceptions, holidays) and the coming days as a calendar. ``+`` and
``-`` change how many days (1 to 90), ``a`` asks "open at …?" for a typed time (read in the
schedule's time zone)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from rich import box
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll

from ....api.models import BusinessHourEntry, BusinessHoursStatus, ScheduleDefinition, ScheduleRef
from ....store.hours_calendar import Calendar, CalendarDay, zone_named
from ....text import one_line, safe
from ...answers import Returned, answer_of
from ...widgets.safe import DataTable, Label, Static
from ..shared.common import admin_store, cell, highlighted_key
from ..shared.form import FormField, FormScreen, Values
from .pane import AdminPane

#: The calendar's lengths, stepped through with + and -.
DAY_STEPS: tuple[int, ...] = (1, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 90)
#: Between two times (an en dash).
DASH = "\u2013"
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def short_time(text: str) -> str:
    """``08:00`` → ``8``, ``15:30`` → ``15:30``: hours as compact as they can be read."""
    hours, _, minutes = text.partition(":")
    if minutes in ("00", ""):
        return str(int(hours)) if hours.isdigit() else text
    return f"{int(hours)}:{minutes}" if hours.isdigit() else text


def hours_text(intervals: list[tuple[str, str]], *, compact: bool = False) -> str:
    """``08:00-17:00`` (or ``8-17``, with an en dash), several joined by a space."""
    show = short_time if compact else (lambda t: t)
    return " ".join(f"{show(a)}{DASH}{show(b)}" for a, b in intervals)


def _entry_hours(entry: BusinessHourEntry) -> str:
    if entry.status != "Open":
        return "closed"
    return hours_text([(i.start_time, i.end_time) for i in entry.intervals]) or "open"


def describe_week(definition: ScheduleDefinition) -> str:
    """``Mon-Thu 08:00-17:00 · Fri 08:00-15:30 · Sat-Sun closed`` (with en dashes)."""
    by_day: dict[int, str] = {}
    for entry in definition.business_hours:
        if entry.day_of_week is not None and 1 <= entry.day_of_week <= 7:
            by_day[entry.day_of_week] = _entry_hours(entry)
    parts: list[str] = []
    day = 1
    while day <= 7:
        hours = by_day.get(day, "closed")
        last = day
        while last + 1 <= 7 and by_day.get(last + 1, "closed") == hours:
            last += 1
        span = WEEKDAYS[day - 1]
        if last != day:
            span += DASH + WEEKDAYS[last - 1]
        parts.append(f"{span} {hours}")
        day = last + 1
    return " · ".join(parts)


def describe_special(entry: BusinessHourEntry) -> str:
    """An exception or holiday: name, when, hours."""
    recurring = entry.recurring
    if recurring is not None and recurring.day_of_month and recurring.month_of_year:
        when = f"every {recurring.day_of_month} {MONTHS[recurring.month_of_year - 1]}"
    elif recurring is not None and recurring.holiday:
        when = f"every {recurring.holiday}"
    else:
        when = entry.start_date or entry.next_date or "?"
    return f"{one_line(entry.name, 40)} ({when}) {_entry_hours(entry)}"


def _day_cell(day: CalendarDay, today: date) -> Text:
    head = f"{day.day.day:02d} {MONTHS[day.day.month - 1]}"
    text = Text(head, style="bold reverse" if day.day == today else "bold")
    text.append("\n")
    if day.is_open:
        text.append(hours_text(day.intervals, compact=True),
                    style="yellow" if day.kind in ("Exception", "Holiday") else "green")
        if day.kind in ("Exception", "Holiday") and day.name:
            text.append("\n" + one_line(day.name, 16), style="italic yellow")
    else:
        text.append("closed", style="dim")
        if day.name:
            text.append("\n" + one_line(day.name, 16), style="italic red")
    return text


def render_calendar(calendar: Calendar) -> Table:
    """The coming days as weeks (Monday first), today highlighted."""
    table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False,
                  padding=(0, 1))
    for name in WEEKDAYS:
        table.add_column(name, ratio=1, no_wrap=False)
    if not calendar.days:
        return table
    today = calendar.days[0].day
    start = today - timedelta(days=today.weekday())
    last = calendar.days[-1].day
    by_day = {d.day: d for d in calendar.days}
    week = start
    while week <= last:
        cells: list[Text | str] = []
        for offset in range(7):
            day = by_day.get(week + timedelta(days=offset))
            cells.append(_day_cell(day, today) if day is not None else "")
        table.add_row(*cells)
        week += timedelta(days=7)
    return table


def describe_status(status: BusinessHoursStatus, zone: ZoneInfo | None) -> str:
    """``Open · closes 17:00`` or ``Closed · opens Mon 08:00`` in the schedule's zone (the pane
    names that zone beside it)."""

    def local(moment: datetime) -> datetime:
        return moment.astimezone(zone) if zone is not None else moment

    if status.is_open:
        if status.closes_at is None:
            return "Open"
        return "Open · closes " + local(status.closes_at).strftime("%H:%M")
    if status.opens_at is None:
        return "Closed"
    opens = local(status.opens_at)
    now = local(status.timestamp)
    day = "" if opens.date() == now.date() else opens.strftime("%a ")
    return "Closed · opens " + day + opens.strftime("%H:%M")


class HoursPane(AdminPane):
    """The business-hours section."""

    TITLE = "Business hours"

    def __init__(self) -> None:
        super().__init__("hours")
        self.schedules: dict[str, ScheduleRef] = {}
        self.definitions: dict[str, ScheduleDefinition] = {}
        self.days = 7
        self.calendar: Calendar | None = None
        self.at_text = ""

    def compose(self) -> ComposeResult:
        yield self.caption()
        with VerticalScroll(id="hours-body"):
            with Horizontal(id="hours-top"):
                table: DataTable[Any] = DataTable(id="hours-table", cursor_type="row",
                                                  classes="admin-main")
                table.add_column("Schedule", key="name")
                yield table
                yield Static("", id="hours-status")
            yield Static("", id="hours-definition")
            yield Label("", id="hours-calendar-title", classes="section-title")
            yield Static("", id="hours-calendar")

    @property
    def table(self) -> DataTable[Any]:
        """The schedules."""
        return self.query_one("#hours-table", DataTable)

    @property
    def current(self) -> ScheduleRef | None:
        """The highlighted schedule."""
        key = highlighted_key(self.table)
        return self.schedules.get(key) if key else None

    def reload(self) -> None:
        """Read the schedules again."""
        self._load()

    class Loaded(Returned[list[ScheduleRef]]):
        """The schedules were read."""

    @work(exclusive=True, group="hours-load", exit_on_error=False)
    async def _load(self) -> None:
        self.post_message(self.Loaded(*await answer_of(admin_store(self).list_schedules())))

    def on_hours_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        schedules = message.value
        self.schedules = {s.id: s for s in schedules}
        self.definitions.clear()
        table = self.table
        table.clear()
        for schedule in schedules:
            table.add_row(cell(schedule.name, 30), key=schedule.id)
        self.set_caption(f"{len(schedules)} schedules")
        self.show_schedule()

    @on(DataTable.RowHighlighted, "#hours-table")
    def _highlighted(self) -> None:
        self.at_text = ""
        self.show_schedule()

    def show_schedule(self) -> None:
        """The highlighted schedule: status, definition, calendar."""
        schedule = self.current
        if schedule is not None:
            self._schedule(schedule, self.days)

    class ScheduleRead(Returned[tuple[ScheduleDefinition, Calendar]]):
        """A schedule's definition and its calendar for the coming days were read."""

    @work(exclusive=True, group="hours-schedule", exit_on_error=False)
    async def _schedule(self, schedule: ScheduleRef, days: int) -> None:
        store = admin_store(self)

        async def read() -> tuple[ScheduleDefinition, Calendar]:
            definition = self.definitions.get(schedule.id)
            if definition is None:
                definition = await store.definition(schedule.id)
                self.definitions[schedule.id] = definition
            return definition, await store.calendar(schedule.id, days, definition)

        self.post_message(self.ScheduleRead(*await answer_of(read())))

    def on_hours_pane_schedule_read(self, message: ScheduleRead) -> None:
        """The schedule beside the list, or why it could not be read."""
        if message.refusal is not None:
            self.query_one("#hours-status", Static).update(safe(message.refusal.reason))
            return
        definition, calendar = message.value
        self.calendar = calendar
        self._paint(definition, calendar)

    def _paint(self, definition: ScheduleDefinition, calendar: Calendar) -> None:
        zone = zone_named(definition.timezone)
        lines = [f"[b]{safe(one_line(definition.name, 40))}[/b]  "
                 f"[dim]{safe(definition.timezone)}[/dim]",
                 "Now: " + safe(describe_status(calendar.status, zone))]
        if self.at_text:
            lines.append(self.at_text)
        self.query_one("#hours-status", Static).update("\n".join(lines))
        holidays = [e for e in definition.exceptions if e.business_hour_type == "Holiday"]
        exceptions = [e for e in definition.exceptions if e.business_hour_type != "Holiday"]
        parts = ["[b]Week[/b]       " + safe(describe_week(definition))]
        if exceptions:
            parts.append("[b]Exceptions[/b] " + safe(" · ".join(describe_special(e)
                                                               for e in exceptions)))
        if holidays:
            parts.append("[b]Holidays[/b]   " + safe(" · ".join(describe_special(e)
                                                               for e in holidays)))
        self.query_one("#hours-definition", Static).update("\n".join(parts))
        count = len(calendar.days)
        open_days = sum(1 for d in calendar.days if d.is_open)
        self.query_one("#hours-calendar-title", Label).update(
            f"The coming {count} day{'s' if count != 1 else ''} ({open_days} open)  + / - "
            "change the range")
        self.query_one("#hours-calendar", Static).update(render_calendar(calendar))

    # ------------------------------------------------------------------ actions

    def change_days(self, step: int) -> None:
        """More (``step`` 1) or fewer (-1) days in the calendar, 1 to 90."""
        index = max((i for i, d in enumerate(DAY_STEPS) if d <= self.days), default=0)
        if DAY_STEPS[index] != self.days and step < 0:
            index += 1
        index = min(max(index + step, 0), len(DAY_STEPS) - 1)
        if DAY_STEPS[index] != self.days:
            self.days = DAY_STEPS[index]
            self.show_schedule()

    def open_at(self) -> None:
        """Ask for a time; say whether the business is open then."""
        schedule = self.current
        if schedule is None:
            return
        definition = self.definitions.get(schedule.id)
        timezone = definition.timezone if definition is not None else "UTC"
        store = admin_store(self)

        async def submit(values: Values) -> None:
            text = str(values.get("when", ""))
            status = await store.status_at_text(
                schedule.id, text, timezone,
                self.calendar.status.timestamp if self.calendar is not None else None)
            zone = zone_named(timezone)
            moment = status.timestamp.astimezone(zone) if zone else status.timestamp
            verdict = "open" if status.is_open else "closed"
            said = describe_status(status, zone).split(" · ", 1)
            rest = f" · {said[1]}" if len(said) > 1 else ""
            self.at_text = (f"At {moment.strftime('%a %d %b %Y %H:%M')}: [b]{verdict}[/b]"
                            f"{safe(rest)}")
            if definition is not None and self.calendar is not None:
                self._paint(definition, self.calendar)

        self.app.push_screen(FormScreen(
            f"Open at … ({schedule.name})",
            [FormField("when", "When", placeholder="14:30 · tomorrow 09:00 · mon 10:00 · "
                       "2026-01-15 12:30")],
            submit, send_label="check", form_id="hours-at",
            intro=f"Read in the schedule's time zone, {timezone}."))
