"""The quick-response picker of the composer (``ctrl+o`` in a thread, or the palette): type to
filter the organisation's quick responses (by name, language or words of the text), read the
highlighted one below the list with its placeholders filled, ``enter`` puts it into the reply
at the cursor, ``esc`` leaves the reply as it was.

Each language of a quick response is its own entry ("Greeting · da"). Placeholders are
filled with the customer's first name, mine and the conversation's id; one whose value is
not known stays as written, to be filled in by hand (see :mod:`frontdesk.store.templates`).
Template text is the service's: it is shown through the safe widgets, never as markup.
"""

from __future__ import annotations

import asyncio

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll

from ....store.templates import QuickResponse, fill_placeholders, matching
from ....text import one_line, safe
from ...answers import Returned, answer_of
from ...registry import owns_bindings
from ...widgets.safe import Input, Label, Option, Static
from ..shared.common import session_of
from ..shared.pickers import FilterPicker, PickerOptions

__all__ = ["QuickResponsePicker"]

_DIM = Style(dim=True)


@owns_bindings
class QuickResponsePicker(FilterPicker[str | None]):
    """Choose a quick response; dismissed with its text, placeholders filled (None on
    ``esc``). ``enter`` typed before the list has loaded takes the first match once it has."""

    HELP_NAME = "Quick responses"
    TITLE_TEXT = "Quick responses"
    HINT = "type to filter · ↑/↓ move · enter inserts at the cursor · esc cancels"
    PLACEHOLDER = "filter by name, language or words"

    def __init__(self, conversation_id: int) -> None:
        super().__init__(id="quick-responses")
        self.conversation_id = conversation_id
        self.entries: list[QuickResponse] | None = None
        self.shown: list[QuickResponse] = []
        self.customer = ""
        self.agent = ""
        self._chosen_early = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="picker-box", id="quick-box"):
            yield Label(safe(self.TITLE_TEXT), classes="picker-title")
            yield Input(placeholder=self.PLACEHOLDER, id="picker-filter")
            yield PickerOptions(id="picker-options")
            with VerticalScroll(id="quick-preview-box"):
                yield Static("Loading quick responses…", id="quick-preview")
            yield Label(safe(self.HINT), id="picker-hint", classes="picker-hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.load()

    @work(exclusive=True, group="quick-responses", exit_on_error=False)
    async def load(self) -> None:
        """Read the quick responses and the names their placeholders take."""
        store = session_of(self).templates

        async def read() -> tuple[list[QuickResponse], tuple[str, str]]:
            names = asyncio.ensure_future(store.names_for(self.conversation_id))
            try:
                entries = await store.quick_responses()
            except BaseException:  # cleanup, then re-raise: the names are not wanted any more
                names.cancel()
                raise
            return entries, await names

        self.post_message(self.Loaded(*await answer_of(read())))

    class Loaded(Returned[tuple[list[QuickResponse], tuple[str, str]]]):
        """The quick responses and (the customer's, my) first names were read."""

    def on_quick_response_picker_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read in the preview."""
        if message.refusal is not None:
            self.query_one("#quick-preview", Static).update(safe(message.refusal.reason))
            return
        entries, (self.customer, self.agent) = message.value
        self.entries = entries
        self._filled = None
        self.sync()
        if self._chosen_early:
            self.choose()

    # ------------------------------------------------------------------ the list

    def refill(self, typed: str) -> None:
        if self.entries is None:
            return
        record = session_of(self).inbox.records.get(self.conversation_id)
        language = (record.language or "") if record is not None else ""
        self.shown = matching(self.entries, typed, language=language)
        options = [Option(Text(one_line(e.title, 40))
                          + Text("  " + one_line(self.filled(e), 60), _DIM), id=e.key)
                   for e in self.shown]
        self.set_options(options)
        if not options:
            self.query_one("#quick-preview", Static).update(
                "No quick response matches." if self.entries else
                "The organisation has no quick responses.")
        self._preview()

    def on_option_list_option_highlighted(self, event: PickerOptions.OptionHighlighted
                                          ) -> None:
        event.stop()
        self._preview()

    def _current(self) -> QuickResponse | None:
        key = self.highlighted_id()
        return next((e for e in self.shown if e.key == key), None)

    def filled(self, entry: QuickResponse) -> str:
        """The entry's text as it goes into the reply."""
        return fill_placeholders(entry.content, customer=self.customer, agent=self.agent,
                                 conversation_id=self.conversation_id)

    def _preview(self) -> None:
        entry = self._current()
        if entry is not None:
            self.query_one("#quick-preview", Static).update(safe(self.filled(entry)))

    def choose(self) -> None:
        """Close with the highlighted entry's filled text."""
        if self.entries is None:
            self._chosen_early = True
            return
        entry = self._current()
        if entry is not None:
            self.dismiss(self.filled(entry))
