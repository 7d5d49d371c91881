"""One agent: details, roles, the teams they belong to, and their presence."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....store.agents import AgentDetail
from ....text import one_line, safe
from ... import clock
from ...answers import Returned, answer_of
from ...registry import owns_bindings
from ...widgets.safe import Label, Static
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import people_store
from .agents import presence_text


@owns_bindings
class AgentDetailScreen(ModalScreen[None], ReportsFailedWorkers):
    """An agent's details, teams and presence (read from the service when opened)."""

    HELP_NAME = "Agent"
    BINDINGS = [
        Binding("escape,enter", "close", "Close", id="agent.close"),
        Binding("r", "refresh", "Refresh", id="agent.refresh"),
    ]

    def __init__(self, agent_id: str) -> None:
        super().__init__()
        self.agent_id = agent_id
        self.detail: AgentDetail | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="agent-box"):
            yield Label("Loading…", id="agent-title")
            yield Static("", id="agent-facts")
            yield Label("Teams", classes="section-title")
            yield Static("", id="agent-teams")
            yield Label("Presence", classes="section-title")
            yield Static("", id="agent-presence")
            yield Label("esc: close    r: refresh", id="agent-hint")

    def on_mount(self) -> None:
        self.load()

    class Loaded(Returned[AgentDetail]):
        """The agent, their teams and their presence were read."""

    @work(exclusive=True, group="agent", exit_on_error=False)
    async def load(self) -> None:
        """Read the agent, their teams and their presence."""
        self.post_message(self.Loaded(
            *await answer_of(people_store(self).agent_detail(self.agent_id))))

    def on_agent_detail_screen_loaded(self, message: Loaded) -> None:
        """The agent, or why they could not be read in the title."""
        if message.refusal is not None:
            self.query_one("#agent-title", Label).update(safe(message.refusal.reason))
            return
        detail = message.value
        self.detail = detail
        agent = detail.agent
        self.query_one("#agent-title", Label).update(safe(one_line(agent.display_name, 60)))
        facts = [("Email", agent.email), ("Phone", agent.phone_number or "—"),
                 ("First name", agent.first_name or "—"), ("Last name", agent.last_name or "—"),
                 ("Roles", ", ".join(agent.roles or []) or "—"),
                 ("Since", clock.shown(agent.created_at, "date")), ("Id", agent.id)]
        self.query_one("#agent-facts", Static).update(
            "\n".join(f"[b]{name:<11}[/b] {safe(one_line(value, 60))}" for name, value in facts))
        teams = ", ".join(one_line(t.name, 40) for t in detail.teams) or "in no team"
        self.query_one("#agent-teams", Static).update(safe(teams))
        presence = presence_text(detail.presence)
        if detail.presence is not None and detail.presence.last_seen is not None:
            presence += " · last seen " + clock.shown(detail.presence.last_seen, "minute")
        self.query_one("#agent-presence", Static).update(safe(detail.note or presence))

    def action_refresh(self) -> None:
        """Read again."""
        self.load()

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
