"""Admin → Teams: every team; beside it the highlighted team's members with their presence.
``n`` creates a team, ``m`` chooses its members (add several, remove several), ``d`` deletes it
(asked) and ``D`` without asking."""

from __future__ import annotations

from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from ....api.models import Team, TeamMember, UserPresence
from ....text import one_line, safe
from ...answers import Regarding, answer_of, refusal_of
from ...widgets.safe import DataTable, Label
from ..people.agents import presence_text
from ..shared.common import admin_store, cell, highlighted_key, move_to, session_of
from ..shared.confirm import ConfirmScreen
from ..shared.form import FormField, FormScreen, Values
from .members import ChoiceRead, choose_members, read_choice
from .pane import AdminPane

#: the teams list's one column: a team's name, cut with … beyond it
NAME_WIDTH = 40

class TeamsPane(AdminPane):
    """The teams section."""

    TITLE = "Teams"

    def __init__(self) -> None:
        super().__init__("teams")
        self.teams: dict[str, Team] = {}
        self.members: list[TeamMember] = []
        self.members_of: str | None = None

    def compose(self) -> ComposeResult:
        yield self.caption()
        with Horizontal(classes="admin-split"):
            table: DataTable[Any] = DataTable(id="teams-table", cursor_type="row",
                                              zebra_stripes=True, classes="admin-main")
            # a width of its own: a column sized to its cells was seen laid out at its
            # label's width ("Bil…") when the section loaded twice in a row (early, then live)
            table.add_column("Team", key="name", width=NAME_WIDTH)
            yield table
            with Vertical(classes="admin-side"):
                yield Label("Members", id="team-members-title", classes="section-title")
                members: DataTable[Any] = DataTable(id="team-members", cursor_type="row")
                members.add_columns("Name", "Email", "Presence")
                yield members

    @property
    def table(self) -> DataTable[Any]:
        """The teams."""
        return self.query_one("#teams-table", DataTable)

    @property
    def current(self) -> Team | None:
        """The highlighted team."""
        key = highlighted_key(self.table)
        return self.teams.get(key) if key else None

    def reload(self, select: str | None = None) -> None:
        """Read the teams again."""
        self._load(select)

    class Loaded(Regarding[str | None, list[Team]]):
        """The teams were read (``about``: the team to highlight then)."""

    @work(exclusive=True, group="teams-load", exit_on_error=False)
    async def _load(self, select: str | None = None) -> None:
        self.post_message(self.Loaded(select, *await answer_of(admin_store(self).list_teams())))

    def on_teams_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        teams = message.value
        before = message.about or highlighted_key(self.table)
        self.teams = {t.id: t for t in teams}
        table = self.table
        table.clear()
        for team in teams:
            table.add_row(cell(team.name, NAME_WIDTH), key=team.id)
        move_to(table, before)
        self.set_caption(f"{len(teams)} teams")
        self.show_members()

    @on(DataTable.RowHighlighted, "#teams-table")
    def _highlighted(self) -> None:
        self.show_members()

    def show_members(self) -> None:
        """Read the highlighted team's members and their presence."""
        team = self.current
        if team is None:
            self.query_one("#team-members", DataTable).clear()
            return
        self._members(team)

    class MembersRead(Regarding[Team, tuple[list[TeamMember], dict[str, UserPresence]]]):
        """A team's members and their presence (by agent id) were read."""

    @work(exclusive=True, group="teams-members", exit_on_error=False)
    async def _members(self, team: Team) -> None:
        store = admin_store(self)

        async def read() -> tuple[list[TeamMember], dict[str, UserPresence]]:
            members = await store.team_members(team.id)
            return members, {p.user_id: p for p in await store.team_presence(team.id)}

        self.post_message(self.MembersRead(team, *await answer_of(read())))

    def on_teams_pane_members_read(self, message: MembersRead) -> None:
        """The members beside the list, or why they could not be read above them."""
        if message.refusal is not None:
            self.query_one("#team-members-title", Label).update(safe(message.refusal.reason))
            return
        members, presence = message.value
        self.members, self.members_of = members, message.about.id
        self._paint_members(message.about, members, presence)

    def _paint_members(self, team: Team, members: list[TeamMember],
                       presence: dict[str, UserPresence]) -> None:
        online = sum(1 for p in presence.values() if p.connection_status == "Online")
        self.query_one("#team-members-title", Label).update(
            safe(f"{one_line(team.name, 40)}: {len(members)} members, {online} online"))
        table = self.query_one("#team-members", DataTable)
        table.clear()
        names = session_of(self).directory.names
        for member in sorted(members, key=lambda m: (m.name or names.get(m.id, "")).casefold()):
            table.add_row(cell(member.name or names.get(member.id) or member.id, 30),
                          cell(member.email, 36),
                          cell(presence_text(presence.get(member.id)), 40), key=member.id)

    # ------------------------------------------------------------------ actions

    def new(self) -> None:
        """Create a team."""
        store = admin_store(self)

        async def submit(values: Values) -> None:
            team = await store.create_team(str(values.get("name", "")))
            self.notify(f"Team {one_line(team.name, 40)} created; m chooses its members.",
                        markup=False)
            self.reload(select=team.id)

        self.app.push_screen(FormScreen("New team", [FormField("name", "Name")], submit,
                                        send_label="create", form_id="new-team"))

    def edit_members(self) -> None:
        """Tick the team's members among every agent."""
        team = self.current
        if team is None:
            return
        self._open_members(team)

    def _open_members(self, team: Team) -> None:
        store = admin_store(self)
        read_choice(self, team, lambda: store.team_members(team.id), group="teams-act")

    def on_choice_read(self, message: ChoiceRead[Team, TeamMember]) -> None:
        """The members picker opens, or a toast says why it cannot."""
        team, store = message.about, admin_store(self)

        async def apply(add: set[str], remove: set[str]) -> None:
            change = await store.change_team_members(team.id, add, remove)
            if change.failures:
                self.notify("; ".join(change.failures), severity="warning", markup=False)
            self.notify(f"{one_line(team.name, 40)}: {len(change.added)} added, "
                        f"{len(change.removed)} removed.", markup=False)
            self.show_members()

        choose_members(self, message, f"Members of {team.name}", lambda m: m.id, apply)

    def delete(self, *, ask: bool) -> None:
        """Delete the highlighted team (its agents stay)."""
        team = self.current
        if team is None:
            return
        if not ask:
            self._delete(team)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete(team)

        self.app.push_screen(ConfirmScreen(f"Delete the team {team.name}?",
                                           "Its agents stay; only the team goes."), answered)

    class Deleted(Regarding[Team, None]):
        """A team was deleted (or refused)."""

    @work(exclusive=True, group="teams-act", exit_on_error=False)
    async def _delete(self, team: Team) -> None:
        self.post_message(self.Deleted(
            team, refusal=await refusal_of(admin_store(self).delete_team(team.id))))

    def on_teams_pane_deleted(self, message: Deleted) -> None:
        """Said in a toast; the list is read again."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        team = message.about
        self.notify(f"Deleted the team {one_line(team.name, 40)}.", markup=False)
        self.reload()
