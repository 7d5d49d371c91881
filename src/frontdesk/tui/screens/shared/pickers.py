"""What the pickers share (:class:`FilterPicker`: its filter line and list), and a one-line
prompt. The pickers of the inbox and the thread are beside it: tags (``tag_picker``), a queue
to transfer to (``queue_picker``), a follow-up time (``followup_picker``).

Each is a small modal with a filter line on top (the focus stays there, so typing filters at
once) and a list below; ``up``/``down`` move in the list, ``enter`` chooses, ``esc`` cancels.
Tag, queue and user-typed names are shown as Rich ``Text`` (never markup) after
:func:`frontdesk.text.one_line`.
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from rich.style import Style
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....text import safe
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, Option, OptionList
from ...worker_failures import ReportsFailedWorkers

__all__ = ["BOLD", "DIM", "NAME_WIDTH", "FilterPicker", "PickerInput", "PickerOptions",
           "PromptScreen"]

T = TypeVar("T")

DIM = Style(dim=True)
BOLD = Style(bold=True)
NAME_WIDTH = 48


class PickerOptions(OptionList, can_focus=False):
    """The list of a picker: never focused (typing goes to the filter line), clickable."""


class PickerInput(Input):
    """The filter line of a picker whose ``space`` toggles rather than types."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Let ``space`` reach the picker's binding (tag names have no spaces to type)."""
        return key != "space" and super().check_consume_key(key, character)


@owns_bindings
class FilterPicker(ModalScreen[T], ReportsFailedWorkers, Generic[T]):
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
