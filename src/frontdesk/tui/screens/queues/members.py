"""Members of a queue (modal, ``m`` in Queues mode): tick agents on and off, then apply.

Type to filter the agents (by name or email); ``space`` toggles the highlighted agent,
``up``/``down`` move; ``enter`` applies the difference (agents added, agents removed) on the
service, ``esc`` cancels. Ticks survive a change of filter. What the service refuses is
shown, and the list then shows what the service now holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....store.errors import Refused
from ....store.memberships import MembersChange
from ....text import one_line
from ...answers import Returned, answer_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, Selection, SelectionList, Static
from ...worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ....store.directory import Directory
    from ....store.queues import QueueWatch


class AgentPicks(SelectionList[str], can_focus=False):
    """The agents with a tick each; the filter field keeps the focus."""


class AgentFilter(Input):
    """The filter field: everything but ``space``, which toggles the highlighted agent."""

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        """Leave ``space`` to the modal's binding."""
        return key != "space" and super().check_consume_key(key, character)


@owns_bindings
class QueueMembersScreen(ModalScreen[bool], ReportsFailedWorkers):
    """Pick a queue's members from every agent; dismissed with True when something changed."""

    HELP_NAME = "Queue members"
    BINDINGS: ClassVar[list[Any]] = [
        Binding("space", "toggle_agent", "Toggle", id="queue_members.toggle", priority=True),
        Binding("down", "move(1)", "Down", id="queue_members.down", show=False),
        Binding("up", "move(-1)", "Up", id="queue_members.up", show=False),
        Binding("enter", "apply", "Apply", id="queue_members.apply", show=False),
        Binding("escape", "cancel", "Cancel", id="queue_members.cancel"),
    ]

    def __init__(self, watch: QueueWatch, queue_id: str, queue_name: str) -> None:
        super().__init__()
        self._watch = watch
        self.queue_id = queue_id
        self.queue_name = queue_name
        self.current: frozenset[str] | None = None
        self.selected: set[str] = set()
        self._shown_ids: list[str] = []
        self._busy = False

    def compose(self) -> ComposeResult:
        with Vertical(id="members-box"):
            yield Label(Text("Members of " + one_line(self.queue_name, 50), style="bold"),
                        id="members-title")
            yield AgentFilter(placeholder="type to filter agents by name or email",
                              id="members-filter")
            yield AgentPicks(id="members-list")
            yield Static("", id="members-summary")
            yield Label("space toggles · enter applies · esc cancels", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#members-filter", Input).focus()
        self._summary(Text("reading the members…", style="dim"))
        self.load()

    # ------------------------------------------------------------------ data

    def _agents(self) -> list[tuple[str, str, str]]:
        """(id, name, email) of every agent known, members first among equals by name."""
        directory = self._directory()
        people = {a.id: (a.display_name, a.email) for a in directory.agents.values()}
        for agent_id in self.current or ():
            people.setdefault(agent_id, (directory.name(agent_id), ""))
        return sorted(((i, n, e) for i, (n, e) in people.items()),
                      key=lambda item: (item[1].casefold(), item[0]))

    def _directory(self) -> Directory:
        session = getattr(self.app, "session", None)
        assert session is not None
        return session.directory  # type: ignore[no-any-return]

    @work(exclusive=True, group="queue-members-load", exit_on_error=False)
    async def load(self, problem: str | None = None) -> None:
        """Read the queue's members from the service and show every agent with a tick;
        ``problem``: what to say under them afterwards."""
        members, refusal = await answer_of(self._watch.members(self.queue_id))
        self.post_message(self.MembersRead(members, refusal, problem))

    class MembersRead(Returned[list[str]]):
        """The queue's members as the service holds them (or why not); ``problem``: what
        to say under them afterwards (a change that did not all happen)."""

        def __init__(self, members: list[str] | None, refusal: Refused | None,
                     problem: str | None) -> None:
            super().__init__(members, refusal)
            self.problem = problem

    def on_queue_members_screen_members_read(self, message: MembersRead) -> None:
        """Every agent with a tick on the members, or why they could not be read; then
        the problem that had them read again, if any."""
        if message.refusal is not None:
            # "Could not read the members: " and 80 cells of the service's words
            self._summary(Text(one_line(message.refusal.reason, 108), style="red"))
        else:
            self.current = frozenset(message.value)
            self.selected = set(message.value)
            self._rebuild()
        if message.problem is not None:
            self._summary(Text(one_line(message.problem, 200), style="red"))

    def _rebuild(self) -> None:
        picks = self.query_one(AgentPicks)
        wanted = self.query_one("#members-filter", Input).value.casefold().split()
        options: list[Selection[str]] = []
        self._shown_ids = []
        for agent_id, name, email in self._agents():
            hay = f"{name} {email}".casefold()
            if wanted and not all(word in hay for word in wanted):
                continue
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(one_line(name, 32))
            if email:
                prompt.append("  " + one_line(email, 40), style="dim")
            options.append(Selection(prompt, agent_id, agent_id in self.selected))
            self._shown_ids.append(agent_id)
        highlighted = picks.highlighted
        picks.clear_options()
        picks.add_options(options)
        if options:
            picks.highlighted = min(highlighted or 0, len(options) - 1)
        self._show_summary()

    def _show_summary(self) -> None:
        if self.current is None:
            return
        added = len(self.selected - self.current)
        removed = len(self.current - self.selected)
        text = Text()
        text.append(f"{len(self.selected)} members")
        if added or removed:
            text.append(f" · +{added} -{removed} to apply", style="bold yellow")
        if not self._shown_ids:
            text.append(" · no agent matches the filter", style="dim")
        self._summary(text)

    def _summary(self, text: Text) -> None:
        self.query_one("#members-summary", Static).update(text)

    # ------------------------------------------------------------------ events and keys

    @on(Input.Changed, "#members-filter")
    def _filter_changed(self) -> None:
        if self.current is not None:
            self._rebuild()

    @on(SelectionList.SelectedChanged, "#members-list")
    def _ticks_changed(self) -> None:
        """Keep the ticks of agents hidden by the filter; take the shown ones from the list."""
        picks = self.query_one(AgentPicks)
        shown = set(self._shown_ids)
        self.selected = (self.selected - shown) | (set(picks.selected) & shown)
        self._show_summary()

    def action_toggle_agent(self) -> None:
        """Tick or untick the highlighted agent."""
        picks = self.query_one(AgentPicks)
        if picks.highlighted is not None and self.current is not None:
            picks.toggle(picks.get_option_at_index(picks.highlighted))

    def action_move(self, step: int) -> None:
        """Move the highlight."""
        picks = self.query_one(AgentPicks)
        if step > 0:
            picks.action_cursor_down()
        else:
            picks.action_cursor_up()

    @on(Input.Submitted, "#members-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_apply()

    def action_apply(self) -> None:
        """Send the difference to the service."""
        if self.current is None or self._busy:
            return
        if self.selected == self.current:
            self.dismiss(False)
            return
        self.apply()

    @work(exclusive=True, group="queue-members-apply", exit_on_error=False)
    async def apply(self) -> None:
        """Add the newly ticked agents, remove the unticked ones; close when both worked."""
        assert self.current is not None
        self._busy = True
        added = sorted(self.selected - self.current)
        removed = sorted(self.current - self.selected)
        self._summary(Text("saving…", style="dim"))
        try:
            change, refusal = await answer_of(
                self._watch.change_members(self.queue_id, added, removed))
        except BaseException:
            self._busy = False  # a failure is said by the console's one handler
            raise
        self.post_message(self.Applied(len(added), len(removed), change, refusal))

    class Applied(Returned[MembersChange]):
        """The service answered the change (``added``, ``removed``: how many were asked)."""

        def __init__(self, added: int, removed: int, change: MembersChange | None,
                     refusal: Refused | None) -> None:
            super().__init__(change, refusal)
            self.added, self.removed = added, removed

    def on_queue_members_screen_applied(self, message: Applied) -> None:
        """Done: said, and the screen closes; else why, and the members as they are now."""
        self._busy = False
        problems = [message.refusal.reason] if message.refusal is not None else \
            message.value.failures
        if not problems:
            self.notify(f"{one_line(self.queue_name, 40)}: {message.added} added, "
                        f"{message.removed} removed.", markup=False)
            self.dismiss(True)
            return
        said = "; ".join(problems)
        self.notify(said, severity="error", markup=False)
        self.load(said)  # the members as the service holds them after it

    def action_cancel(self) -> None:
        """Close without changing anything."""
        self.dismiss(False)
