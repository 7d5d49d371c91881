"""A light, read-only preview of the highlighted conversation, beside the inbox list.

The head (id, channel, state, requester, subject, queue, assignee, tags) paints at once from
the inbox's record; the last few messages follow from the store once the cursor has rested
on the conversation for :attr:`PreviewPane.DEBOUNCE` seconds, so running down the list with
``j`` costs no requests. Messages are kept per conversation while its record and its last
activity are unchanged (a reply adds a message without changing the record).
The inbox shows the pane only when the terminal is wide.

One Rich ``Text`` is shown (no markup parsed): every name, subject and body goes through
:mod:`frontdesk.text` or the thread's body renderer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import work
from textual.timer import Timer
from textual.worker import Worker

from ...text import one_line
from ..answers import Regarding, answer_of
from ..worker_failures import ReportsFailedWorkers
from .conversation_cells import channel_label, state_glyph
from .conversation_list import RowLookups
from .safe import Static

if TYPE_CHECKING:
    from ...api.models import Message
    from ...store.errors import Refused
    from ...store.rows import InboxRow

__all__ = ["PreviewPane"]

Loader = Callable[[int], Awaitable["list[Message]"]]

_LABEL: Final = Style(dim=True)
_TITLE: Final = Style(bold=True)
_AUTHOR: Final = Style(bold=True)
_GLYPHS: Final = {"Inbound": "◀", "Outbound": "▶", "Internal": "◆"}
#: lines of a message body shown at most
BODY_LINES: Final = 8


class PreviewPane(Static, ReportsFailedWorkers):
    """The highlighted conversation's head and its last messages."""

    DEBOUNCE: ClassVar[float] = 0.3
    CACHE_SIZE: ClassVar[int] = 32

    def __init__(self, lookups: RowLookups, load: Loader, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self.lookups = lookups
        self._load = load
        self._conversation: InboxRow | None = None
        #: per conversation: what it was read for (its row and last activity), and what was read
        self._messages: OrderedDict[int, tuple[tuple[InboxRow, datetime],
                                               list[Message] | str]] = OrderedDict()
        self._timer: Timer | None = None
        #: the conversation whose messages are being read
        self._fetching: int | None = None
        #: conversations whose read never left (not connected yet): read again when shown
        self._unsent: set[int] = set()
        self.fetches = 0

    @property
    def conversation_id(self) -> int | None:
        """The conversation shown."""
        return self._conversation.id if self._conversation is not None else None

    def show(self, conversation: InboxRow | None) -> None:
        """Show this conversation: the head now, its messages after the debounce.

        The list re-announces its highlighted row after every rebuild (several a second
        while the inbox fills): showing the same conversation again neither restarts a
        pending debounce nor a fetch under way, and a changed record of it keeps its known
        messages on screen while they are read again."""
        previous = self._conversation
        self._conversation = conversation
        same_id = (conversation is not None and previous is not None
                   and conversation.id == previous.id)
        if not same_id and self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._paint()
        if conversation is None or not self.display or self._fresh():
            return
        if same_id and (self._timer is not None or self._fetching == conversation.id):
            return  # already on its way; a changed record is read again when it lands
        self._timer = self.set_timer(self.DEBOUNCE, self._fetch)

    def known_messages(self, conversation_id: int) -> list[Message]:
        """The newest messages of a conversation read for this pane (oldest first; none when
        they were not read, or could not be): what its thread can show before the service
        answers."""
        known = self._messages.get(conversation_id)
        return list(known[1]) if known is not None and isinstance(known[1], list) else []

    def flush(self) -> Worker[None] | None:
        """Fetch now instead of after the debounce (tests and snapshots)."""
        if self._timer is None:
            return None
        self._timer.stop()
        self._timer = None
        return self._fetch()

    def _cached(self) -> list[Message] | str | None:
        """The known messages of the conversation shown (maybe of an older record of it)."""
        conversation = self._conversation
        if conversation is None:
            return None
        known = self._messages.get(conversation.id)
        return None if known is None else known[1]

    def _fresh(self) -> bool:
        """Whether the known messages were read for the record shown, as active as it is."""
        conversation = self._conversation
        known = self._messages.get(conversation.id) if conversation is not None else None
        return known is not None and known[0] == self._read_for(conversation) \
            and conversation is not None and conversation.id not in self._unsent

    def _read_for(self, conversation: InboxRow | None) -> tuple[InboxRow, datetime] | None:
        """What messages read now are read for: the record and its last activity."""
        if conversation is None:
            return None
        return conversation, self.lookups.when(conversation)

    @work(exclusive=True, exit_on_error=False, group="preview",
          description="read the last messages")
    async def _fetch(self) -> None:
        conversation = self._conversation
        self._timer = None
        if conversation is None:
            return
        read_for = (conversation, self.lookups.when(conversation))  # as it is when asked
        self.fetches += 1
        self._fetching = conversation.id
        try:
            messages, refusal = await answer_of(self._load(conversation.id))
        except Exception:
            # cleanup, then on to the console's one handler (logged, said in one line): the
            # pane never says "Loading…" for good
            self._keep(read_for, "The messages could not be read.", None)
            raise
        finally:
            if self._fetching == conversation.id:
                self._fetching = None
        self._keep(read_for, refusal.reason if refusal is not None else messages or [],
                   refusal)

    def _keep(self, read_for: tuple[InboxRow, datetime], result: list[Message] | str,
              refusal: Refused | None) -> None:
        """Keep what was read (or why not) and say so to the pane."""
        conversation = read_for[0]
        if refusal is not None and refusal.passing:
            self._unsent.add(conversation.id)
        else:
            self._unsent.discard(conversation.id)
        self._messages[conversation.id] = (read_for, result)
        self._messages.move_to_end(conversation.id)
        while len(self._messages) > self.CACHE_SIZE:
            dropped, _ = self._messages.popitem(last=False)
            self._unsent.discard(dropped)
        self.post_message(self.Fetched(conversation, refusal=refusal))

    class Fetched(Regarding["InboxRow", None]):
        """The messages of a conversation (``about``) were read and kept (or why not, kept
        instead)."""

    def on_preview_pane_fetched(self, message: Fetched) -> None:
        """Paint them if the conversation is still the one shown."""
        message.stop()
        conversation = message.about
        shown = self._conversation
        if shown is not None and shown.id == conversation.id:
            self._paint()
            # changed meanwhile: read again (a read that never left is read again when the
            # list next shows the row, not in a loop)
            unsent = message.refusal is not None and message.refusal.passing
            if not unsent and not self._fresh() and self.display and self._timer is None:
                self._timer = self.set_timer(self.DEBOUNCE, self._fetch)

    # ------------------------------------------------------------------ painting

    def _paint(self) -> None:
        conversation = self._conversation
        if conversation is None:
            self.update(Text("Nothing highlighted.", style=_LABEL))
            return
        out = self._head(conversation)
        messages = self._cached()
        out.append("\n")
        if messages is None:
            out.append("\nLoading the last messages…", _LABEL)
        elif isinstance(messages, str):
            out.append("\n" + one_line(messages, 200), _LABEL)
        elif not messages:
            out.append("\nNo messages yet.", _LABEL)
        else:
            for message in messages:
                out.append("\n")
                out.append_text(self._message(message))
        self.update(out)

    def _head(self, conversation: InboxRow) -> Text:
        look = self.lookups
        out = Text(end="")
        out.append(f"#{conversation.id}", _TITLE)
        out.append(f"  {channel_label(conversation.channel)}  "
                   f"{state_glyph(conversation.state)} {one_line(conversation.state or '', 20)}")
        out.append("\n")
        out.append(one_line(look.name(conversation.requester_id), 60), _TITLE)
        if conversation.subject:
            out.append("\n")
            out.append(one_line(conversation.subject, 200))
        queue = conversation.queue_id
        agent = conversation.agent_id
        out.append("\nQueue ", _LABEL)
        out.append(one_line(look.queue_name(queue), 40) if queue else "—")
        out.append("   Assignee ", _LABEL)
        out.append(one_line(look.name(agent), 40) if agent else "—")
        tags = look.tag_names(conversation.id)
        if tags:
            from ..tag_colors import tags_text

            out.append("\nTags ", _LABEL)
            out.append_text(tags_text(tags, look.tag_colors(conversation.id), 200))
        return out

    def _message(self, message: Message) -> Text:
        from ..render import render_body_cached  # Markdown and HTML: not for the first frame

        look = self.lookups
        attributes = message.attributes
        out = Text(end="")
        out.append(_GLYPHS.get(attributes.direction or "", "•") + " ")
        out.append(one_line(look.name(message.author_id), 40), _AUTHOR)
        out.append("  " + look.ago(message.created_at), _LABEL)
        body = attributes.body
        if body is not None and body.value:
            text = render_body_cached(message.id, body.type, body.value).copy()
            lines = text.split("\n", allow_blank=True)
            shown = Text("\n", end="").join(lines[:BODY_LINES])
            out.append("\n")
            out.append_text(shown)
            if len(lines) > BODY_LINES:
                out.append("\n…", _LABEL)
        elif attributes.attachments:
            out.append(f"\n({len(attributes.attachments)} attachment(s))", _LABEL)
        return out
