"""The tag picker of the inbox and the thread: toggle a conversation's tags, create one
that matches no name typed. Tag names are shown as Rich ``Text`` after
:func:`frontdesk.text.one_line`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ....api.models import Tag
from ....text import one_line
from ...offered import may
from ...registry import owns_bindings
from ...tag_colors import tag_style
from ...widgets.safe import Input, Option
from .pickers import BOLD, DIM, NAME_WIDTH, FilterPicker

__all__ = ["TagChoice", "TagPicker"]


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
    """Toggle a conversation's tags; a typed name that matches none can be created (when
    the member's role may create tags: through a team gateway, a supervisor's).

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
        text = Text("[x] " if on else "[ ] ", style=BOLD if on else "")
        color = tag_style(tag.color) if tag is not None else None
        text.append("■ " if color is not None else "  ", color or "")
        text.append(one_line(self._tag_name(tag_id), NAME_WIDTH), DIM if inactive else "")
        if inactive:
            text.append("  deactivated", DIM)
        if on != (tag_id in self.applied):
            text.append("  (added)" if on else "  (removed)", DIM)
        return text

    def refill(self, typed: str, highlight: int | str | None = 0) -> None:
        wanted = typed.strip().casefold()
        ids = set(self.tags) | self.applied
        # the tags applied when the picker opened first, then the others, by name
        shown = sorted((i for i in ids if wanted in self._tag_name(i).casefold()),
                       key=lambda i: (i not in self.applied, self._tag_name(i).casefold(), i))
        options = [Option(Text("[x] ", style=BOLD) + Text(one_line(name, NAME_WIDTH))
                          + Text("  new", style=DIM), id=f"new:{index}")
                   for index, name in enumerate(self.creates) if wanted in name.casefold()]
        options += [Option(self._prompt(i), id=f"tag:{i}") for i in shown]
        name = " ".join(typed.split())
        exists = any(self._tag_name(i).casefold() == name.casefold() for i in ids) or any(
            n.casefold() == name.casefold() for n in self.creates)
        if name and not exists and may(self, "tags.create"):
            create = Option(Text("+ create tag «") + Text(one_line(name, NAME_WIDTH), BOLD)
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
