"""Mode 3, Team: who is online and working, for everyone or one team, updated live.

A team picker and the counts (online, working, working per channel) at the top; below, one
row per member: name, email, connection and presence, load (open conversations assigned),
active channels, last seen. ``s`` cycles the sort (name, presence, load, last seen), ``/``
filters as you type, ``t`` picks a team.

The rows come from the store's ``team:presence`` topic and the loads from ``team:load``
(:mod:`frontdesk.store.team`); a poll
where nobody changed never reaches this screen, and a change updates only the cells that
differ (the table is rebuilt only when rows come, go or move).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.events import Resize

from ....channels import channel_name
from ....store.team import (
    LIST_TOPIC,
    LOAD_TOPIC,
    PRESENCE_TOPIC,
    Load,
    MemberRow,
    TeamRef,
    TeamSnapshot,
    TeamWatch,
    count,
)
from ....text import one_line
from ... import clock
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, Input, Select, Static
from ..shared.base import ModeScreen
from ..shared.table_rows import Cell, TableRows

if TYPE_CHECKING:
    from ....store.session import Session

#: The picker's value for "everyone".
EVERYONE = "*"
SORTS = ("name", "presence", "load", "last seen")

def channel_label(channel: str) -> str:
    """``Chat`` for InteractiveChat; every channel by its one display name."""
    return channel_name(channel) or one_line(channel, 16)


def status_cell(row: MemberRow) -> Cell:
    """``● Online · Working`` (green), ``● Online · Away`` (yellow), ``○ Offline`` (dim)."""
    if not row.online:
        return ("○ Offline", "dim")
    if row.working:
        return ("● Online · Working", "green")
    return ("● Online · " + one_line(row.presence, 10), "yellow")


def load_cell(load: Load | None) -> Cell:
    """``3`` open conversations assigned, ``0`` (dim), ``200+``, ``…`` (not counted yet)."""
    if load is None:
        return ("…", "dim")
    if load.open == 0:
        return ("0", "dim")
    return (f"{load.open}+" if load.more else str(load.open), "bold")


def _sort_key(sort: str, loads: dict[str, Load]) -> Callable[[MemberRow], Any]:
    if sort == "load":
        def busiest(r: MemberRow) -> Any:
            load = loads.get(r.agent_id)
            return (load is None, -(load.open if load else 0), r.name.casefold(), r.agent_id)
        return busiest
    if sort == "presence":
        return lambda r: (0 if r.working else 1 if r.online else 2, r.name.casefold(),
                          r.agent_id)
    if sort == "last seen":
        return lambda r: (r.last_seen is None,
                          -r.last_seen.timestamp() if r.last_seen else 0.0,
                          r.name.casefold(), r.agent_id)
    return lambda r: (r.name.casefold(), r.agent_id)


@owns_bindings
class TeamScreen(ModeScreen):
    """Team mode: presence of everyone or of one team."""

    MODE_NAME = "Team"
    HELP_NAME = "Team"
    TOPICS = (PRESENCE_TOPIC, LIST_TOPIC, LOAD_TOPIC)
    AUTO_FOCUS = "#team-table"
    NEEDS = {"activity": "activity_log.list"}
    BINDINGS: ClassVar[list[Any]] = [
        Binding("t", "pick_team", "Pick team", id="team.pick"),
        Binding("s", "sort", "Sort", id="team.sort"),
        Binding("slash", "filter", "Filter", id="team.filter"),
        Binding("escape", "clear_filter", "Clear filter", id="team.clear_filter", show=False),
        Binding("r", "refresh", "Refresh", id="team.refresh"),
        Binding("a", "activity", "Activity", show=False, id="team.activity"),
        Binding("j", "cursor(1)", "Down", id="team.down", show=False),
        Binding("k", "cursor(-1)", "Up", id="team.up", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._watch: TeamWatch | None = None
        self._sort = SORTS[0]
        self._filter = ""
        self._table_rows = TableRows()
        self._painted: tuple[Any, ...] | None = None
        self._teams: tuple[TeamRef, ...] | None = None
        self._widths: tuple[int, ...] = ()
        self._shown: dict[str, Text] = {}

    # ------------------------------------------------------------------ building

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="team-top"):
            yield Select[str]([(Text("Everyone"), EVERYONE)], value=EVERYONE,
                              allow_blank=False, compact=True, id="team-pick")
            yield Static("", id="team-counts")
        with Horizontal(id="team-bar"):
            yield Static("", id="team-channels")
            yield Static("", id="team-info")
        yield Input(placeholder="filter: name, email or channel (esc clears)",
                    id="team-filter", classes="-hidden")
        table: DataTable[Text] = DataTable(id="team-table", cursor_type="row")
        yield table

    @property
    def session(self) -> Session | None:
        """The app's session (None in a console without one)."""
        return self.fd.session

    def _attach_store(self) -> TeamWatch | None:
        """Create the store's Team topics on first show (before the base class watches)."""
        if self._watch is None and self.session is not None:
            self._watch = self.session.team
            self._watch.visible = self._visible_ids
        return self._watch

    def _visible_ids(self) -> list[str] | None:
        """The agents on screen (the store counts their load)."""
        try:
            table = self.query_one("#team-table", DataTable)
        except NoMatches:  # not composed yet
            return None
        return self._table_rows.visible(table)

    def on_mount(self) -> None:
        self._attach_store()
        self._layout(self.size.width)
        self.set_interval(30, self._refresh_ages, name="team ages")

    def on_screen_resume(self) -> None:
        # ModeScreen watches the topics (once, however often Textual resumes the screen).
        self._attach_store()
        self._paint_all()

    def on_resize(self, event: Resize) -> None:
        """Share the room between the columns again when the width changes."""
        if self._layout(event.size.width):
            self._paint(force=True)

    # ------------------------------------------------------------------ live changes

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """Repaint what changed: the rows, or the team picker."""
        if message.topic in (PRESENCE_TOPIC, LOAD_TOPIC):
            self._paint()
        elif message.topic == LIST_TOPIC:
            self._paint_teams()

    def _paint_all(self) -> None:
        self._paint_teams()
        self._paint()

    def _paint_teams(self) -> None:
        watch = self._watch
        if watch is None or watch.teams == self._teams:
            return
        self._teams = watch.teams
        select = self.query_one("#team-pick", Select)
        chosen = watch.team_id or EVERYONE
        options: list[tuple[Text, str]] = [(Text("Everyone"), EVERYONE)]
        options += [(Text(one_line(ref.name, 40)), ref.team_id) for ref in self._teams]
        with select.prevent(Select.Changed):
            select.set_options(options)
            if any(value == chosen for _, value in options):
                select.value = chosen

    def _paint(self, *, force: bool = False) -> None:
        """Bring counts, info line and table up to date with the latest snapshot."""
        watch = self._watch
        snapshot = watch.snapshot if watch is not None else None
        loads = self._session_loads()
        key = (snapshot, tuple(loads.values()), self._sort, self._filter,
               watch.team_id if watch else None)
        if key == self._painted and not force:
            return
        self._painted = key
        self._paint_counts(snapshot)
        rows = self._rows(snapshot)
        self._paint_info(snapshot, len(rows))
        self._paint_table(rows, force=force)

    def _current(self, snapshot: TeamSnapshot | None) -> bool:
        watch = self._watch
        return snapshot is not None and watch is not None and snapshot.team_id == watch.team_id

    def _paint_counts(self, snapshot: TeamSnapshot | None) -> None:
        counts_line = Text(no_wrap=True, overflow="ellipsis")
        channels_line = Text(no_wrap=True, overflow="ellipsis")
        if not self._current(snapshot):
            counts_line.append("loading presence…", style="dim")
        else:
            assert snapshot is not None
            counts = count(snapshot.rows)
            counts_line.append(str(counts.online), style="bold")
            counts_line.append(f" of {counts.members} online · ")
            counts_line.append(str(counts.working), style="bold green")
            counts_line.append(" working")
            channels_line.append("Working on ", style="dim")
            for index, (channel, number) in enumerate(counts.per_channel):
                channels_line.append((" · " if index else "") + channel_label(channel) + " ")
                channels_line.append(str(number), style="bold")
        self._update("team-counts", counts_line)
        self._update("team-channels", channels_line)

    def _paint_info(self, snapshot: TeamSnapshot | None, shown: int) -> None:
        info = Text(no_wrap=True, overflow="ellipsis", style="dim", justify="right")
        if self._filter:
            total = len(snapshot.rows) if snapshot is not None else 0
            info.append(f"“{one_line(self._filter, 20)}”: {shown} of {total} · ")
        info.append(f"sorted by {self._sort}")
        self._update("team-info", info)

    def _rows(self, snapshot: TeamSnapshot | None) -> list[MemberRow]:
        if not self._current(snapshot):
            return []
        assert snapshot is not None
        rows = list(snapshot.rows)
        wanted = self._filter.casefold().split()
        if wanted:
            def matches(row: MemberRow) -> bool:
                hay = " ".join((row.name, row.email, *row.channels,
                                *(channel_label(c) for c in row.channels),
                                row.connection, row.presence)).casefold()
                return all(word in hay for word in wanted)
            rows = [row for row in rows if matches(row)]
        rows.sort(key=_sort_key(self._sort, self._session_loads()))
        return rows

    def _session_loads(self) -> dict[str, Load]:
        return self._watch.loads if self._watch is not None else {}

    # ------------------------------------------------------------------ the table

    def _layout(self, width: int) -> bool:
        """Column widths for ``width`` cells; True when they changed (columns rebuilt)."""
        room = max(60, width - 2 - 2 * 6)  # the table's border/scrollbar, cell padding
        status, load, seen = 18, 5, 9
        rest = room - status - load - seen - 2
        # at 80 columns the six columns still fit (a long name or address cut with "…")
        name = max(12, rest * 26 // 100)
        email = max(10, rest * 40 // 100)
        channels = max(10, rest - name - email)
        widths = (name, email, status, load, channels, seen)
        if widths == self._widths:
            return False
        self._widths = widths
        table = self.query_one("#team-table", DataTable)
        table.clear(columns=True)
        for (key, label), column_width in zip(
                (("name", "Name"), ("email", "Email"), ("status", "Status"), ("load", "Load"),
                 ("channels", "Active channels"), ("seen", "Last seen")), widths, strict=True):
            table.add_column(label, key=key, width=column_width)
        self._table_rows.forget()
        return True

    def _row_cells(self, row: MemberRow) -> tuple[Cell, ...]:
        name_w, email_w, _, _, channels_w, _ = self._widths
        channels = ", ".join(channel_label(c) for c in row.channels) if row.channels else "—"
        return (
            (one_line(row.name, name_w), "bold" if row.working else ""),
            (one_line(row.email, email_w), "dim"),
            status_cell(row),
            load_cell(self._session_loads().get(row.agent_id)),
            (one_line(channels, channels_w), "" if row.working else "dim"),
            (clock.ago(row.last_seen) if row.last_seen is not None else "—", "dim"),
        )

    def _paint_table(self, rows: list[MemberRow], *, force: bool = False) -> None:
        table = self.query_one("#team-table", DataTable)
        self._table_rows.sync(table, [row.agent_id for row in rows],
                        {row.agent_id: self._row_cells(row) for row in rows}, force=force)

    def _refresh_ages(self) -> None:
        """Relative times move on with the clock: touch only the cells whose text changed."""
        if not self._table_rows.order or self.app.screen is not self:
            return
        watch = self._watch
        snapshot = watch.snapshot if watch is not None else None
        if snapshot is None:
            return
        table = self.query_one("#team-table", DataTable)
        by_id = {row.agent_id: row for row in snapshot.rows}
        self._table_rows.update(table, {agent_id: self._row_cells(by_id[agent_id])
                                  for agent_id in self._table_rows.order if agent_id in by_id})

    # ------------------------------------------------------------------ actions

    def action_pick_team(self) -> None:
        """Open the team picker."""
        select = self.query_one("#team-pick", Select)
        select.focus()
        select.action_show_overlay()

    @on(Select.Changed, "#team-pick")
    def _team_picked(self, event: Select.Changed) -> None:
        value = event.value
        team_id = None if value == EVERYONE or not isinstance(value, str) else value
        watch = self._watch
        if watch is None or team_id == watch.team_id:
            return
        self._choose(team_id)
        self._paint()
        self.query_one("#team-table", DataTable).focus()

    @work(exclusive=True, group="team-choose", exit_on_error=False)
    async def _choose(self, team_id: str | None) -> None:
        """Fetch the chosen team now; the store tells the screen when it has it."""
        if self._watch is not None:
            await self._watch.choose(team_id)

    def action_sort(self) -> None:
        """Cycle the sort: name, presence, load (busiest first), last seen."""
        self._sort = SORTS[(SORTS.index(self._sort) + 1) % len(SORTS)]
        self._paint()

    def action_filter(self) -> None:
        """Show the filter field and put the cursor in it."""
        field = self.query_one("#team-filter", Input)
        field.remove_class("-hidden")
        field.focus()

    def action_clear_filter(self) -> None:
        """Forget the filter and go back to the table."""
        field = self.query_one("#team-filter", Input)
        if field.value:
            field.value = ""
        field.add_class("-hidden")
        self.query_one("#team-table", DataTable).focus()
        if self._filter:
            self._filter = ""
            self._paint()

    @on(Input.Changed, "#team-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._filter = event.value.strip()
        self._paint()

    @on(Input.Submitted, "#team-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.query_one("#team-filter", Input).add_class("-hidden")
        self.query_one("#team-table", DataTable).focus()

    def action_refresh(self) -> None:
        """Ask the service now instead of at the next tick."""
        if self.session is not None:
            self.session.live.poke(PRESENCE_TOPIC)
            self.session.live.poke(LIST_TOPIC)

    def action_activity(self) -> None:
        """The organisation's recent activity (who did what), filtered as you type."""
        from ..shared.history import ActivityScreen

        self.app.push_screen(ActivityScreen())

    def action_cursor(self, step: int) -> None:
        """Move the row cursor (j/k)."""
        table = self.query_one("#team-table", DataTable)
        if step > 0:
            table.action_cursor_down()
        else:
            table.action_cursor_up()

    def _update(self, widget_id: str, content: Text) -> None:
        """Update a Static only when what it shows changes (no refresh otherwise)."""
        if self._shown.get(widget_id) == content:
            return
        self._shown[widget_id] = content
        self.query_one(f"#{widget_id}", Static).update(content)
