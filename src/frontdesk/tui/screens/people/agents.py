"""People → Agents: every agent and admin with their presence; filter the listing by part of a
name, an email address or a phone number (no request: the listing is all there is), create one
or many from a CSV (with a per-row report), edit (full or only what changed), detail (teams,
presence), downgrade.

The screen (:mod:`.people`) owns the keys; this pane does the work.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical

from ....api.models import Agent, UserPresence
from ....channels import channel_name
from ....store.agents_csv import CsvRow
from ....store.errors import Refused
from ....store.team import MemberRow
from ....text import one_line, safe
from ...answers import Regarding, answer_of, refusal_of
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import Column, FittedTable, highlighted_key, people_store
from ..shared.confirm import ConfirmScreen
from ..shared.form import FormField, FormScreen, Values

COLUMNS = (Column("Name", 15, 1), Column("Email", 22, 4), Column("Phone", 12),
           Column("Roles", 8, 1), Column("Presence", 16, 2))


def agent_matches(agent: Agent, text: str) -> bool:
    """Whether every word of ``text`` is in the agent's name, email or phone number
    (case-insensitive; a phone number's spaces and dashes do not count)."""
    words = text.casefold().split()
    hay = " ".join((agent.display_name, agent.email, agent.phone_number or "",
                    agent.first_name or "", agent.last_name or "")).casefold()
    digits = "".join(c for c in agent.phone_number or "" if c.isdigit() or c == "+")
    return all(word in hay or (word.replace("-", "") in digits and any(
        c.isdigit() for c in word)) for word in words)


def presence_text(presence: UserPresence | None) -> str:
    """``● Working · Email`` / ``● Away`` / ``○ Offline`` / ``—``."""
    if presence is None:
        return "—"
    if presence.connection_status != "Online":
        return "○ Offline"
    channels = ", ".join(channel_name(c) or one_line(c, 16) for c in presence.active_channels)
    return f"● {presence.presence_status or 'Away'}" + (f" · {channels}" if channels else "")


def presence_cell(presence: UserPresence | None) -> Text:
    """The presence column: short channel names, coloured by state."""
    if presence is None:
        return Text("—", style="dim")
    if presence.connection_status != "Online":
        return Text("○ Offline", style="dim")
    working = presence.presence_status == "Working"
    out = Text("● " + (presence.presence_status or "Away"),
               style="green" if working else "yellow")
    channels = " ".join(channel_name(c) or one_line(c, 16) for c in presence.active_channels)
    if channels:
        out.append(" · " + channels)
    return out


class AgentsPane(Vertical, ReportsFailedWorkers):
    """The agents tab."""

    def __init__(self) -> None:
        super().__init__(id="agents-pane")
        self.agents: dict[str, Agent] = {}
        self.presence: dict[str, UserPresence] = {}
        self.filter = ""
        #: every agent, as last listed (the filter narrows this)
        self.everyone: list[Agent] = []
        self.caption = "Loading agents…"

    def compose(self) -> ComposeResult:
        yield Label(self.caption, id="agents-caption", classes="pane-caption")
        yield FittedTable(COLUMNS, id="agents-table")

    @property
    def table(self) -> FittedTable:
        """The list."""
        return self.query_one("#agents-table", FittedTable)

    def on_mount(self) -> None:
        self.load()

    # ------------------------------------------------------------------ the list

    class Loaded(Regarding[str | None, tuple[list[Agent], dict[str, UserPresence]]]):
        """Every agent and everyone's presence (by agent id) were read (``about``: the
        agent to highlight then)."""

    @work(exclusive=True, group="agents-load", exit_on_error=False)
    async def load(self, select: str | None = None) -> None:
        """Every agent with everyone's presence (filtered, when a filter is set)."""
        store = people_store(self)

        async def read() -> tuple[list[Agent], dict[str, UserPresence]]:
            everyone = await store.list_agents()
            return everyone, await store.presence_of_all()

        self.post_message(self.Loaded(select, *await answer_of(read())))

    def on_agents_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        self.everyone, self.presence = message.value
        self.show_filtered(select=message.about)

    def show_filtered(self, *, select: str | None = None) -> None:
        """The agents the filter lets through (everyone without one)."""
        if self.filter:
            agents = [a for a in self.everyone if agent_matches(a, self.filter)]
            caption = f"{len(agents)} matching “{one_line(self.filter, 40)}” (r shows everyone)"
        else:
            agents = self.everyone
            caption = f"{len(agents)} agents and admins"
        self.show(agents, caption, select=select)

    def show(self, agents: list[Agent], caption: str, *, select: str | None = None) -> None:
        """Fill the list."""
        self.agents = {a.id: a for a in agents}
        self.table.fill(((agent.id, [agent.display_name, agent.email,
                                     agent.phone_number or "", ", ".join(agent.roles or []),
                                     presence_cell(self.presence.get(agent.id))])
                         for agent in agents), select)
        self.set_caption(caption)

    def set_caption(self, text: str) -> None:
        """The line above the list."""
        self.caption = text
        self.query_one("#agents-caption", Label).update(safe(text))

    def apply_presence(self, rows: Iterable[MemberRow]) -> None:
        """Presence as the live Team topic last saw it (the list repaints only when an
        agent's presence shown here changed)."""
        changed = False
        for row in rows:
            known = self.presence.get(row.agent_id)
            if known is None:
                continue
            fresh = known.model_copy(update={"connection_status": row.connection,
                                             "presence_status": row.presence,
                                             "active_channels": list(row.channels),
                                             "last_seen": row.last_seen or known.last_seen})
            if presence_text(fresh) != presence_text(known):
                changed = True
            self.presence[row.agent_id] = fresh
        if changed and self.everyone:
            self.show_filtered(select=highlighted_key(self.table))

    @property
    def current(self) -> Agent | None:
        """The highlighted agent."""
        key = highlighted_key(self.table)
        return self.agents.get(key) if key else None

    def reset(self) -> None:
        """Everyone again (the filter dropped), read afresh."""
        self.filter = ""
        self.load()

    # ------------------------------------------------------------------ filter and create

    def filter_form(self) -> None:
        """Filter the listing by part of a name, an email address or a phone number; the
        form stays, saying so, when nobody matches."""

        async def submit(values: Values) -> None:
            text = " ".join(str(values.get("text", "")).split())
            if text and not any(agent_matches(a, text) for a in self.everyone):
                raise Refused(f"No agent matches “{one_line(text, 60)}”")
            self.filter = text
            self.show_filtered()

        self.app.push_screen(FormScreen(
            "Filter agents",
            [FormField("text", "Name, email or phone", value=self.filter,
                       placeholder="ada, @example.com, +45 12",
                       hint="Every word must appear in the name, the email or the phone "
                            "number; empty shows everyone.")],
            submit, send_label="filter", form_id="filter-agents", focus="text"))

    def new(self) -> None:
        """A form for one new agent."""
        store = people_store(self)

        async def submit(values: Values) -> None:
            agent = await store.create_agent(values)
            self.notify(f"Created {one_line(agent.display_name, 40)}", markup=False)
            self.filter = ""
            self.load(select=agent.id)

        self.app.push_screen(FormScreen(
            "New agent",
            [FormField("display_name", "Display name"),
             FormField("email", "Email", placeholder="name@example.com"),
             FormField("phone_number", "Phone", placeholder="+4512345678"),
             FormField("first_name", "First name"),
             FormField("last_name", "Last name")],
            submit, send_label="create", form_id="new-agent"))

    def bulk(self) -> None:
        """Create agents from a CSV file: type its path, say yes to how many it creates,
        then read the per-row report."""
        store = people_store(self)
        read: list[list[CsvRow]] = []

        async def submit(values: Values) -> None:
            read.append(await store.read_csv(str(values.get("path", ""))))

        def done(ok: bool | None) -> None:
            if ok and read:
                self._ask_bulk(read[-1])

        self.app.push_screen(FormScreen(
            "Create agents from a CSV file",
            [FormField("path", "CSV file", placeholder="~/agents.csv")],
            submit, send_label="read", form_id="bulk-agents",
            intro="The first line names the columns: displayName,email,phoneNumber "
                  "(and optionally firstName, lastName, avatarUrl); at most 10,000 lines. "
                  "You are asked before anything is created; every line gets a report."),
            done)

    def _ask_bulk(self, rows: list[CsvRow]) -> None:
        """How many agents the file creates, asked before any is."""
        sendable = sum(1 for row in rows if row.agent is not None)
        refused = len(rows) - sendable
        if not sendable:  # nothing to ask: the report says why each line cannot be sent
            self._bulk_create(rows)
            return
        detail = (f"{refused:,} other line{'s' if refused != 1 else ''} cannot be an agent "
                  "and will be in the report, not sent. " if refused else "")

        def answered(yes: bool | None) -> None:
            if yes:
                self._bulk_create(rows)

        self.app.push_screen(ConfirmScreen(
            f"Create {sendable:,} agent{'s' if sendable != 1 else ''}?",
            detail + "Each line's outcome is shown when the service has answered."), answered)

    @work(exclusive=True, group="agents-bulk", exit_on_error=False)
    async def _bulk_create(self, rows: list[CsvRow]) -> None:
        sendable = sum(1 for row in rows if row.agent is not None)
        if sendable:
            self.app.notify(f"Creating {sendable:,} agents…", timeout=4)
        report, refusal = await answer_of(people_store(self).bulk_create(rows))
        if refusal is not None or report is None:
            self.app.notify(f"{refusal}" if refusal else "Nothing was created",
                            severity="error", markup=False)
            return
        from .bulk import BulkReportScreen

        self.filter = ""
        self.load()
        self.app.push_screen(BulkReportScreen(report))

    # ------------------------------------------------------------------ one agent

    def edit(self, *, full: bool) -> None:
        """Edit the highlighted agent: a full update (empty fields are cleared) or a patch
        (only what changed is sent)."""
        agent = self.current
        if agent is None:
            return
        store = people_store(self)

        async def submit(values: Values) -> None:
            if full:
                updated = await store.update_agent(agent.id, values)
            else:
                updated = await store.patch_agent(agent, values)
            # kept in the whole list too: a later repaint (a presence change, a filter)
            # shows it from there
            self.everyone = [updated if a.id == updated.id else a for a in self.everyone]
            self.agents[updated.id] = updated
            self.show(list(self.agents.values()), "Saved " + one_line(updated.display_name, 40),
                      select=updated.id)

        title = "Edit agent (full update)" if full else "Change agent (only changed fields)"
        intro = (f"{agent.email} · the email address cannot change. "
                 + ("Empty fields are cleared." if full else "Only fields you change are sent."))
        self.app.push_screen(FormScreen(
            title,
            [FormField("display_name", "Display name", value=agent.display_name),
             FormField("phone_number", "Phone", value=agent.phone_number or ""),
             FormField("first_name", "First name", value=agent.first_name or ""),
             FormField("last_name", "Last name", value=agent.last_name or ""),
             FormField("avatar_url", "Avatar URL", value=agent.avatar_url or "")],
            submit, intro=intro, send_label="save",
            form_id="edit-agent" if full else "patch-agent"))

    def open(self) -> None:
        """The highlighted agent's teams and presence."""
        agent = self.current
        if agent is not None:
            from .agent import AgentDetailScreen

            self.app.push_screen(AgentDetailScreen(agent.id))

    def downgrade(self, *, ask: bool) -> None:
        """Downgrade the highlighted agent to an end user (asked unless ``ask`` is False)."""
        agent = self.current
        if agent is None:
            return
        if not ask:
            self._downgrade(agent)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._downgrade(agent)

        self.app.push_screen(ConfirmScreen(
            f"Downgrade {agent.display_name} to an end user?",
            "They lose their roles, presence, and team and queue memberships; conversations "
            "assigned to them stay assigned."), answered)

    class Downgraded(Regarding[Agent, None]):
        """An agent was downgraded to an end user (or refused)."""

    @work(exclusive=True, group="agents-act", exit_on_error=False)
    async def _downgrade(self, agent: Agent) -> None:
        self.post_message(self.Downgraded(
            agent, refusal=await refusal_of(people_store(self).downgrade_agent(agent.id))))

    def on_agents_pane_downgraded(self, message: Downgraded) -> None:
        """The agent leaves the list, or a toast says why not."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        agent = message.about
        self.agents.pop(agent.id, None)
        self.show(list(self.agents.values()),
                  f"{one_line(agent.display_name, 40)} is now an end user")
