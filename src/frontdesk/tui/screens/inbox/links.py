"""Linked conversations from the thread: ``l`` lists the parent and the children (enter opens
one), ``L`` links the open conversation under a parent typed by number."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import Conversation, LinkType
from ....store.links import link_problem, link_to_parent
from ....text import one_line
from ...answers import Answered, refusal_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, OptionList, Select, Static
from ...worker_failures import ReportsFailedWorkers

if TYPE_CHECKING:
    from ....store.errors import Refused

__all__ = ["LinkParentScreen", "LinkedScreen", "linked_summary"]

_TYPES: dict[str, str] = {"SideConversation": "side conversation", "Related": "related",
                          "EmailForward": "forwarded email", "FollowUp": "follow-up"}


def linked_summary(conversation: Conversation | None, children: tuple[Conversation, ...]
                   ) -> str:
    """The head's words for the links: ``under #12 (side conversation) · 2 linked: #45 #46``
    ("" when there are none)."""
    parts: list[str] = []
    link = conversation.link if conversation is not None else None
    if link is not None:
        kind = _TYPES.get(link.type, one_line(link.type, 20))
        parts.append(f"under #{link.parent_id} ({kind})")
    if children:
        ids = " ".join(f"#{child.id}" for child in children[:5])
        more = f" +{len(children) - 5}" if len(children) > 5 else ""
        parts.append(f"{len(children)} linked: {ids}{more}")
    if parts:
        parts[-1] += "  (l)"
    return " · ".join(parts)


@owns_bindings
class LinkedScreen(ModalScreen[int | None]):
    """The parent and the children of a conversation; answers the id to open, or None."""

    HELP_NAME = "Linked conversations"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,l", "close", "Close", id="linked.close"),
    ]

    def __init__(self, conversation_id: int, conversation: Conversation | None,
                 children: tuple[Conversation, ...]) -> None:
        super().__init__()
        self.conversation_id = conversation_id
        self.ids: list[int] = []
        lines: list[Text] = []
        link = conversation.link if conversation is not None else None
        if link is not None:
            self.ids.append(link.parent_id)
            lines.append(Text(f"↑ #{link.parent_id}  parent "
                              f"({_TYPES.get(link.type, one_line(link.type, 20))})"))
        for child in children:
            self.ids.append(child.id)
            kind = _TYPES.get(child.link.type, one_line(child.link.type, 20)) \
                if child.link is not None else "linked"
            subject = one_line(child.subject or "", 60)
            lines.append(Text(f"↓ #{child.id}  {kind}  {one_line(str(child.state), 12)}"
                              + (f"  {subject}" if subject else "")))
        self._lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box", classes="-small"):
            yield Label(f"Linked to #{self.conversation_id}", id="history-title")
            yield OptionList(*self._lines, id="linked-list")
            yield Static("" if self._lines else
                         "Nothing linked: L links this conversation under a parent.",
                         id="history-status")
            yield Label("enter: open    esc: close", id="history-hint")

    @on(OptionList.OptionSelected, "#linked-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.ids[event.option_index])

    def action_close(self) -> None:
        """Back to the thread."""
        self.dismiss(None)


@owns_bindings
class LinkParentScreen(ModalScreen[int | None], ReportsFailedWorkers):
    """Link a conversation under a parent: its number and how they relate. Answers the
    parent's id once the service has linked them, else None."""

    HELP_NAME = "Link to a parent"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Cancel", id="link.cancel"),
    ]

    def __init__(self, conversation_id: int) -> None:
        super().__init__()
        self.conversation_id = conversation_id

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box", classes="-small"):
            yield Label(f"Link #{self.conversation_id} under a parent", id="history-title")
            yield Input(placeholder="the parent conversation's number, then enter",
                        id="link-parent")
            yield Select([("Side conversation", LinkType.SIDE_CONVERSATION.value),
                          ("Related", LinkType.RELATED.value)],
                         value=LinkType.SIDE_CONVERSATION.value, allow_blank=False,
                         id="link-type")
            yield Static("", id="history-status")
            yield Label("enter: link    tab: how they relate    esc: cancel", id="history-hint")

    def _say(self, text: str, *, error: bool = True) -> None:
        line = self.query_one("#history-status", Static)
        line.update(Text(one_line(text, 160)))
        line.set_class(error, "-error")

    @on(Input.Submitted, "#link-parent")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        parent = link_problem(self.conversation_id, event.value)
        if isinstance(parent, str):
            self._say(parent)
            return
        self._say(f"Linking under #{parent}…", error=False)
        self._link(parent, str(self.query_one("#link-type", Select).value))

    class Linked(Answered):
        """The service's answer to linking the conversation under ``parent_id``."""

        def __init__(self, parent_id: int, refusal: Refused | None) -> None:
            super().__init__(refusal)
            self.parent_id = parent_id

    @work(exclusive=True, group="link", exit_on_error=False)
    async def _link(self, parent_id: int, link_type: str) -> None:
        session = getattr(self.app, "session", None)
        if session is None:
            return
        refusal = await refusal_of(link_to_parent(session, self.conversation_id, parent_id,
                                                  LinkType(link_type)))
        self.post_message(self.Linked(parent_id, refusal))

    def on_link_parent_screen_linked(self, message: Linked) -> None:
        """Linked: back to the thread; refused: why, in one line, and the number stays."""
        if message.reason is not None:
            self._say(message.reason)
            return
        self.dismiss(message.parent_id)

    def action_close(self) -> None:
        """Back to the thread, nothing linked."""
        self.dismiss(None)
