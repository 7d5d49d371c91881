"""Choose the members of a team or a queue: every agent, the current members ticked. Tick
several and untick several, then ``ctrl+s`` applies the difference (added and removed in one
go); the service's refusal is shown and the choice kept."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget

from ....text import one_line, safe
from ...answers import Answered, Regarding, answer_of, refusal_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, Selection, SelectionList, Static
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import session_of

if TYPE_CHECKING:
    from ....store.session import Session

T = TypeVar("T")
S = TypeVar("S")
M = TypeVar("M")

#: adds and removes; returns when done, raises ``Refused`` when not
Apply = Callable[[set[str], set[str]], Awaitable[None]]


async def with_every_agent(session: Session, members: Awaitable[T]) -> T:
    """``members`` read, and every agent too (into the directory) when none is known yet:
    what the members picker starts from."""
    read = await members
    if not session.directory.agents:
        await session.people.list_agents()
    return read


class ChoiceRead(Regarding[S, list[M]]):
    """What choosing the members of ``about`` (a team, a queue) starts from was read: its
    members, and every agent into the directory; or why not. Posted to the section that
    asked (its ``on_choice_read`` calls :func:`choose_members`)."""


def read_choice(asker: Widget, about: S, members: Callable[[], Awaitable[list[M]]], *,
                group: str) -> None:
    """Read ``about``'s members (and every agent) in a worker of ``group`` (the section's
    actions, one at a time); the answer reaches ``asker`` as :class:`ChoiceRead`."""

    async def read() -> None:
        asker.post_message(ChoiceRead(about, *await answer_of(
            with_every_agent(session_of(asker), members()))))

    asker.run_worker(read(), group=group, exclusive=True, exit_on_error=False)


def choose_members(asker: Widget, message: ChoiceRead[Any, M], title: str,
                   member_id: Callable[[M], str], apply: Apply) -> None:
    """The members picker over ``asker``'s screen: every agent the directory knows, the
    members read ticked, ``apply`` sending the difference; or a toast says why the members
    could not be read."""
    if message.refusal is not None:
        asker.notify(message.refusal.reason, severity="error", markup=False)
        return
    people = [(a.id, a.display_name) for a in session_of(asker).directory.agents.values()]
    asker.app.push_screen(MembersScreen(title, people, {member_id(m) for m in message.value},
                                        apply))


@owns_bindings
class MembersScreen(ModalScreen[bool], ReportsFailedWorkers):
    """Tick the members: ``space`` toggles, ``ctrl+s`` applies, ``esc`` cancels."""

    HELP_NAME = "Members"
    BINDINGS = [
        Binding("ctrl+s", "apply", "Apply", id="members.apply"),
        Binding("escape", "cancel", "Cancel", id="members.cancel"),
        Binding("ctrl+f", "find", "Filter", id="members.filter"),
    ]

    def __init__(self, title: str, people: list[tuple[str, str]], current: set[str],
                 apply: Apply) -> None:
        super().__init__()
        self.title_text = title
        self.people = sorted(people, key=lambda p: p[1].casefold())
        self.current = set(current)
        self.chosen = set(current)
        self._apply = apply
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical(id="members-box"):
            yield Label(safe(self.title_text), id="members-title")
            # not selected on focus: a letter typed on the list lands here before the focus
            yield Input(placeholder="type to narrow the list (ctrl+f)", id="members-filter",
                        select_on_focus=False)
            yield SelectionList[str](*self._selections(""), id="members-list")
            yield Static("", id="members-problem")
            yield Label("space: tick / untick    ctrl+s: apply    esc: cancel",
                        id="members-hint")

    def _selections(self, text: str) -> list[Selection[str]]:
        wanted = text.casefold().strip()
        return [Selection(one_line(name, 50), person_id, person_id in self.chosen)
                for person_id, name in self.people if wanted in name.casefold()]

    def on_mount(self) -> None:
        self.query_one("#members-list", SelectionList).focus()
        self._summarise()

    @property
    def added(self) -> set[str]:
        """Ticked now, not a member before."""
        return self.chosen - self.current

    @property
    def removed(self) -> set[str]:
        """A member before, unticked now."""
        return self.current - self.chosen

    def _summarise(self, problem: str = "") -> None:
        text = problem or f"{len(self.added)} to add, {len(self.removed)} to remove"
        widget = self.query_one("#members-problem", Static)
        widget.update(safe(text))
        widget.set_class(bool(problem), "-error")

    @on(SelectionList.SelectedChanged)
    def _ticked(self, event: SelectionList.SelectedChanged[str]) -> None:
        listing = event.selection_list
        visible = {listing.get_option_at_index(i).value for i in range(listing.option_count)}
        self.chosen = (self.chosen - visible) | set(listing.selected)
        self._summarise()

    @on(Input.Changed, "#members-filter")
    def _filtered(self, event: Input.Changed) -> None:
        listing = self.query_one("#members-list", SelectionList)
        listing.clear_options()
        listing.add_options(self._selections(event.value))
        if listing.option_count:  # so space ticks the first one left, with no move first
            listing.highlighted = 0

    def on_key(self, event: events.Key) -> None:
        """A letter typed on the list narrows it: the filter takes that letter, and the
        keys after it (a burst typed at once lands whole in the filter)."""
        box = self.query_one("#members-filter", Input)
        character = event.character
        if box.has_focus or not event.is_printable or character is None or character == " ":
            return
        event.stop()
        event.prevent_default()
        box.focus()
        box.insert_text_at_cursor(character)

    @on(Input.Submitted, "#members-filter")
    def _to_list(self) -> None:
        self.query_one("#members-list", SelectionList).focus()

    def action_find(self) -> None:
        """Narrow the list by name."""
        self.query_one("#members-filter", Input).focus()

    def action_apply(self) -> None:
        """Add the ticked, remove the unticked."""
        if self.sending:
            return
        if not self.added and not self.removed:
            self._summarise("Nothing changed.")
            return
        self.sending = True
        self._send(set(self.added), set(self.removed))

    class Applied(Answered):
        """What came of applying the change."""

    @work(exclusive=True, group="members", exit_on_error=False)
    async def _send(self, add: set[str], remove: set[str]) -> None:
        refusal = await refusal_of(self._apply(add, remove))
        self.post_message(self.Applied(refusal))

    def on_members_screen_applied(self, message: Applied) -> None:
        """Applied: the screen closes; refused: why, and the choice stays."""
        self.sending = False
        if message.reason is not None:
            self._summarise(message.reason)
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        """Close without changing anything."""
        self.dismiss(False)
