"""Pickers shared by the inbox and the thread: tags, a queue to transfer to, a follow-up time,
and a one-line prompt.

Each is a small modal with a filter line on top (the focus stays there, so typing filters at
once) and a list below; ``up``/``down`` move in the list, ``enter`` chooses, ``esc`` cancels.
Tag, queue and user-typed names are shown as Rich ``Text`` (never markup) after
:func:`frontdesk.text.one_line`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import Queue, Tag
from ....store.errors import Refused
from ....store.typed_time import parse_typed_time
from ....text import one_line, safe
from ... import clock
from ...clock import ago, now
from ...registry import owns_bindings
from ...tag_colors import tag_style
from ...widgets.safe import Input, Label, Option, OptionList
from .base import LiveModal

if TYPE_CHECKING:
    from ....store.queue_rows import QueueRow
    from ....store.queues import QueueWatch

__all__ = ["END_FOLLOWUP", "FollowupPicker", "PromptScreen", "QueuePicker", "TagChoice",
           "TagPicker", "parse_followup"]

T = TypeVar("T")

_DIM = Style(dim=True)
_BOLD = Style(bold=True)
NAME_WIDTH = 48


class PickerOptions(OptionList, can_focus=False):
    """The list of a picker: never focused (typing goes to the filter line), clickable."""


class PickerInput(Input):
    """The filter line of a picker whose ``space`` toggles rather than types."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Let ``space`` reach the picker's binding (tag names have no spaces to type)."""
        return key != "space" and super().check_consume_key(key, character)


@owns_bindings
class FilterPicker(ModalScreen[T], Generic[T]):
    """A modal with a filter line and a list of options."""

    HELP_NAME = "Picker"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        # priority: the filter line (focused) would take the arrows otherwise
        Binding("down", "move(1)", "Next", id="picker.down", show=False, priority=True),
        Binding("up", "move(-1)", "Previous", id="picker.up", show=False, priority=True),
        Binding("pagedown", "move(8)", "Page down", id="picker.page_down", show=False,
                priority=True),
        Binding("pageup", "move(-8)", "Page up", id="picker.page_up", show=False,
                priority=True),
    ]
    TITLE_TEXT: ClassVar[str] = ""
    HINT: ClassVar[str] = "type to filter · ↑/↓ move · enter choose · esc cancel"
    PLACEHOLDER: ClassVar[str] = "filter"
    SPACE_TOGGLES: ClassVar[bool] = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="picker-box"):
            yield Label(safe(self.title_text()), classes="picker-title")
            yield (PickerInput if self.SPACE_TOGGLES else Input)(
                placeholder=self.PLACEHOLDER, id="picker-filter")
            yield PickerOptions(id="picker-options")
            yield Label(safe(self.HINT), id="picker-hint", classes="picker-hint")

    def title_text(self) -> str:
        """The question at the top."""
        return self.TITLE_TEXT

    #: the filter text the list was last filled for
    _filled: str | None = None

    def on_mount(self) -> None:
        self.sync()
        self.query_one("#picker-filter", Input).focus()

    def sync(self) -> None:
        """Fill the list for the filter line's text as it is now, if it is not yet: a key
        of a burst may act before the line's change messages arrive (they then change
        nothing)."""
        typed = self.typed
        if typed != self._filled:
            self._filled = typed
            self.refill(typed)

    @property
    def options(self) -> OptionList:
        """The list."""
        return self.query_one("#picker-options", OptionList)

    @property
    def typed(self) -> str:
        """What is typed in the filter line."""
        return self.query_one("#picker-filter", Input).value

    def refill(self, typed: str) -> None:
        """Rebuild the list for the filter text (subclasses)."""

    def set_options(self, options: list[Option], highlight: int | str | None = 0) -> None:
        """Replace the list, highlighting an index or an option id."""
        listing = self.options
        listing.set_options(options)
        if not options:
            return
        index = 0
        if isinstance(highlight, str):
            ids = [o.id for o in options]
            index = ids.index(highlight) if highlight in ids else 0
        elif isinstance(highlight, int):
            index = min(max(highlight, 0), len(options) - 1)
        listing.highlighted = index

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.sync()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.sync()
        self.choose()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.clicked(event.option_index)

    def clicked(self, index: int) -> None:
        """An option was clicked: choose it (tag picker: toggle it)."""
        self.options.highlighted = index
        self.choose()

    def choose(self) -> None:
        """``enter``: close with the choice (subclasses)."""

    def highlighted_id(self) -> str | None:
        """The id of the highlighted option."""
        option = self.options.highlighted_option
        return option.id if option is not None else None

    def action_move(self, step: int) -> None:
        """Move the highlight in the list."""
        self.sync()
        listing = self.options
        if listing.option_count == 0:
            return
        current = listing.highlighted if listing.highlighted is not None else 0
        listing.highlighted = min(max(current + step, 0), listing.option_count - 1)

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)


# ---------------------------------------------------------------------------- tags


@dataclass(frozen=True)
class TagChoice:
    """What the tag picker changes: tag ids to add and remove, names to create (and add)."""

    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    create: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """Nothing to change."""
        return not (self.add or self.remove or self.create)


@owns_bindings
class TagPicker(FilterPicker[TagChoice | None]):
    """Toggle a conversation's tags; a typed name that matches none can be created.

    Active tags toggle on and off; deactivated tags are dimmed and can only be removed.
    """

    HELP_NAME = "Tag picker"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_tag", "Toggle", id="tags.toggle", priority=True),
    ]
    HINT = "type to filter · space toggles · enter applies · esc cancels"
    PLACEHOLDER = "filter, or a new tag's name"
    SPACE_TOGGLES = True

    def __init__(self, applied: Iterable[str], tags: Mapping[str, Tag], *,
                 conversation_id: int | None = None) -> None:
        super().__init__()
        self.applied = frozenset(applied)
        self.tags = dict(tags)
        self.chosen: set[str] = set(self.applied)
        self.creates: list[str] = []
        self.conversation_id = conversation_id

    def title_text(self) -> str:
        where = f" of #{self.conversation_id}" if self.conversation_id is not None else ""
        return f"Tags{where}"

    def _tag_name(self, tag_id: str) -> str:
        tag = self.tags.get(tag_id)
        return tag.name if tag is not None else "…" + tag_id[-6:]

    def _prompt(self, tag_id: str) -> Text:
        tag = self.tags.get(tag_id)
        on = tag_id in self.chosen
        inactive = tag is not None and not tag.active
        text = Text("[x] " if on else "[ ] ", style=_BOLD if on else "")
        color = tag_style(tag.color) if tag is not None else None
        text.append("■ " if color is not None else "  ", color or "")
        text.append(one_line(self._tag_name(tag_id), NAME_WIDTH), _DIM if inactive else "")
        if inactive:
            text.append("  deactivated", _DIM)
        if on != (tag_id in self.applied):
            text.append("  (added)" if on else "  (removed)", _DIM)
        return text

    def refill(self, typed: str, highlight: int | str | None = 0) -> None:
        wanted = typed.strip().casefold()
        ids = set(self.tags) | self.applied
        # the tags applied when the picker opened first, then the others, by name
        shown = sorted((i for i in ids if wanted in self._tag_name(i).casefold()),
                       key=lambda i: (i not in self.applied, self._tag_name(i).casefold(), i))
        options = [Option(Text("[x] ", style=_BOLD) + Text(one_line(name, NAME_WIDTH))
                          + Text("  new", style=_DIM), id=f"new:{index}")
                   for index, name in enumerate(self.creates) if wanted in name.casefold()]
        options += [Option(self._prompt(i), id=f"tag:{i}") for i in shown]
        name = " ".join(typed.split())
        exists = any(self._tag_name(i).casefold() == name.casefold() for i in ids) or any(
            n.casefold() == name.casefold() for n in self.creates)
        if name and not exists:
            create = Option(Text("+ create tag «") + Text(one_line(name, NAME_WIDTH), _BOLD)
                            + Text("»"), id="create")
            options = [create, *options] if not shown else [*options, create]
        self.set_options(options, highlight)

    def action_toggle_tag(self) -> None:
        """Toggle the highlighted tag (or add the typed name as a new tag)."""
        self.sync()
        option_id = self.highlighted_id()
        index = self.options.highlighted or 0
        if option_id is None:
            return
        if option_id == "create":
            self.creates.append(" ".join(self.typed.split()))
            self.query_one("#picker-filter", Input).value = ""
            return
        if option_id.startswith("new:"):
            del self.creates[int(option_id[4:])]
        else:
            tag_id = option_id[4:]
            tag = self.tags.get(tag_id)
            if tag_id in self.chosen:
                self.chosen.discard(tag_id)
            elif tag is not None and not tag.active:
                self.app.notify(f"“{one_line(tag.name, NAME_WIDTH)}” is deactivated: it can "
                                "be removed from a conversation but not added.",
                                severity="warning", markup=False)
                return
            else:
                self.chosen.add(tag_id)
        self.refill(self.typed, index)

    def clicked(self, index: int) -> None:
        self.options.highlighted = index
        self.action_toggle_tag()

    def choice(self) -> TagChoice:
        """The difference chosen so far (with a typed new name when it is highlighted)."""
        creates = list(self.creates)
        if self.highlighted_id() == "create":
            creates.append(" ".join(self.typed.split()))
        return TagChoice(add=tuple(sorted(self.chosen - self.applied)),
                         remove=tuple(sorted(self.applied - self.chosen)),
                         create=tuple(dict.fromkeys(creates)))

    def choose(self) -> None:
        choice = self.choice()
        self.dismiss(None if choice.empty else choice)


# ---------------------------------------------------------------------------- queues


def waiting_text(row: QueueRow | None) -> Text:
    """``  12 waiting · oldest 25 min`` for a queue (empty while not counted yet)."""
    text = Text()
    if row is None or row.waiting is None:
        return text
    if row.waiting == 0:
        text.append("  none waiting", _DIM)
        return text
    count = f"{row.waiting}+" if row.waiting_more else str(row.waiting)
    text.append(f"  {count} waiting")
    if row.oldest is not None:
        text.append(f" · oldest {'' if row.oldest_exact else '≥ '}{ago(row.oldest)}", _DIM)
    return text


@owns_bindings
class QueuePicker(LiveModal, FilterPicker[str | None]):
    """Pick the queue to transfer a conversation to, with how many wait in each and for how
    long (from the store's ``queues`` topic, watched while the picker is open)."""

    HELP_NAME = "Queue picker"
    HINT = "type to filter · enter transfers · esc cancels"
    PLACEHOLDER = "filter queues"

    def __init__(self, queues: Mapping[str, Queue], *, current: str | None = None,
                 conversation_id: int | None = None, watch: QueueWatch | None = None) -> None:
        super().__init__()
        self.queues = dict(queues)
        self.current = current
        self.conversation_id = conversation_id
        self.queue_watch = watch
        self._waiting: dict[str, Text] = {}

    def on_mount(self) -> None:
        if self.queue_watch is not None:
            self.queue_watch.watch_topic()
            self._waiting = self._waiting_texts()
        super().on_mount()

    def on_unmount(self) -> None:
        if self.queue_watch is not None:
            self.queue_watch.unwatch_topic()

    def _waiting_texts(self) -> dict[str, Text]:
        rows = self.queue_watch.rows if self.queue_watch is not None else ()
        return {row.queue_id: waiting_text(row) for row in rows}

    def on_store_change(self, topic: str, value: Any) -> None:
        """New waiting counts: refill the list, keeping the highlighted queue."""
        if topic != "queues" or self.queue_watch is None:
            return
        waiting = self._waiting_texts()
        if waiting != self._waiting:
            self._waiting = waiting
            self.refill(self.typed)

    def title_text(self) -> str:
        where = f" #{self.conversation_id}" if self.conversation_id is not None else ""
        return f"Transfer{where} to the queue…"

    def refill(self, typed: str) -> None:
        wanted = typed.strip().casefold()
        shown = sorted((q for q in self.queues.values() if wanted in q.name.casefold()),
                       key=lambda q: (not q.is_default, q.name.casefold(), q.id))
        names: list[Text] = []
        for queue in shown:
            text = Text(one_line(queue.name, NAME_WIDTH))
            if queue.is_default:
                text.append("  default", _DIM)
            if queue.id == self.current:
                text.append("  (now here)", _DIM)
            names.append(text)
        width = max((text.cell_len for text in names), default=0)
        options: list[Option] = []
        for queue, text in zip(shown, names, strict=True):
            waiting = self._waiting.get(queue.id)
            if waiting:  # in a column of its own
                text.pad_right(width - text.cell_len)
                text.append_text(waiting)
            options.append(Option(text, id=queue.id))
        self.set_options(options, self.highlighted_id() if self.options.option_count else 0)

    def choose(self) -> None:
        queue_id = self.highlighted_id()
        if queue_id is not None:
            self.dismiss(queue_id)


# ---------------------------------------------------------------------------- follow-up


#: the follow-up picker's answer for "end the follow-up now"
END_FOLLOWUP = "end"
#: how far ahead a follow-up may be set
FOLLOWUP_LIMIT = timedelta(days=366)


def _local_zone(moment: datetime) -> tzinfo:
    zone = moment.astimezone().tzinfo
    assert zone is not None
    return zone


def parse_followup(typed: str, reference: datetime | None = None) -> datetime | str:
    """A follow-up time from what the user typed, or why it is not one.

    The grammar of :func:`~frontdesk.store.typed_time.parse_typed_time`, in local time; a
    bare ``HH:MM`` is the next such time. The result is aware and in the future.
    """
    base = reference or now()
    try:
        moment = parse_typed_time(typed, None, base, next_clock=True)
    except Refused as refusal:
        return refusal.reason
    if moment <= base:
        return "That time has passed: pick a time in the future."
    if moment - base > FOLLOWUP_LIMIT:
        return "That is more than a year away."
    return moment


def followup_presets(reference: datetime | None = None) -> list[tuple[str, str, datetime]]:
    """(id, label, time) of the ready-made choices: in 1 h, in 4 h, tomorrow 09:00 local."""
    base = reference or now()
    local = base.astimezone(_local_zone(base))
    tomorrow = (local + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
    return [("1h", "In 1 hour", base + timedelta(hours=1)),
            ("4h", "In 4 hours", base + timedelta(hours=4)),
            ("tomorrow", "Tomorrow at 09:00", tomorrow)]


@owns_bindings
class FollowupPicker(FilterPicker[datetime | str | None]):
    """Pending until a time: in 1 hour, in 4 hours, tomorrow 09:00, or a typed time; for a
    Pending conversation also "end the follow-up now" (answered as :data:`END_FOLLOWUP`)."""

    HELP_NAME = "Follow-up picker"
    HINT = "↑/↓ and enter, or type +2h, +30m, YYYY-MM-DD HH:MM · esc cancels"
    PLACEHOLDER = "or type a time: +2h, +30m, 2026-01-06 14:00"

    def __init__(self, *, conversation_id: int | None = None, pending: bool = False,
                 until: datetime | None = None) -> None:
        super().__init__()
        self.conversation_id = conversation_id
        self.presets = followup_presets()
        #: the conversation is Pending now (the list then offers to end the follow-up)
        self.pending = pending
        self.until = until

    def title_text(self) -> str:
        where = f" #{self.conversation_id}" if self.conversation_id is not None else ""
        if self.pending:
            now_until = ""
            if self.until is not None:
                local = self.until.astimezone(_local_zone(self.until))
                now_until = f" (now until {local:%a %d %b %H:%M})"
            return f"Follow up{where}{now_until}: pending until…"
        return f"Follow up{where}: pending until…"

    def refill(self, typed: str) -> None:
        hint = self.query_one("#picker-hint", Label)
        if not typed.strip():
            options = [Option(label, id=key) for key, label, _ in self.presets]
            if self.pending:
                options.insert(0, Option("End the follow-up now (opens it again)",
                                         id=END_FOLLOWUP))
            self.set_options(options)
            hint.update(safe(self.HINT))
            hint.remove_class("-error")
            return
        result = parse_followup(typed)
        if isinstance(result, str):
            hint.update(Text(result))
            hint.add_class("-error")
        else:
            hint.update(Text("enter: pending until " + clock.shown(result, "full")))
            hint.remove_class("-error")

    def choose(self) -> None:
        typed = self.typed
        if typed.strip():
            result = parse_followup(typed)
            if isinstance(result, str):
                self.app.notify(result, severity="warning", markup=False)
                return
            self.dismiss(result)
            return
        key = self.highlighted_id()
        if key == END_FOLLOWUP:
            self.dismiss(END_FOLLOWUP)
            return
        for preset, _label, moment in followup_presets():
            if preset == key:
                self.dismiss(moment)
                return


# ---------------------------------------------------------------------------- prompt


@owns_bindings
class PromptScreen(ModalScreen[str | None]):
    """One line of text: ``enter`` answers, ``esc`` cancels."""

    HELP_NAME = "Prompt"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="prompt.cancel"),
    ]

    def __init__(self, question: str, *, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="picker-box"):
            yield Label(safe(self.question), classes="picker-title")
            yield Input(value=self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("enter: go · esc: cancel", classes="picker-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        self.dismiss(value or None)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)
