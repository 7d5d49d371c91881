"""Input: holds what the person wrote, as it is sent; paints it inert."""

from __future__ import annotations

from textual import events
from textual import widgets as textual_widgets
from textual.strip import Strip

from ....text import clean
from . import inert_strip, typed, written_key


class Input(textual_widgets.Input):
    """``textual.widgets.Input`` whose value is what will be sent.

    Text typed or pasted loses its control characters (line breaks and tabs become spaces)
    and nothing else, so a joiner or a right-to-left mark stays part of what is sent. A value
    set by the program (a pre-filled name or attribute: service text) is cleaned as one line,
    placeholders and all, so the person sees that something odd is there. Every line the
    input paints goes through the sanitiser as well, so nothing it holds can act on the
    terminal or reorder the screen.

    :attr:`kept_value` gives a pre-filled value back as it came while the person has not
    changed it, so saving a form never rewrites text nobody edited."""

    _unclean: tuple[str, str] | None = None
    _writing = False

    def validate_value(self, value: str) -> str:
        if self._writing:  # an edit: the inserted text is already as it will be sent
            return value
        cleaned = clean(value, multiline=False)
        if cleaned != value:
            self._unclean = (cleaned, value)
        return cleaned

    @property
    def kept_value(self) -> str:
        """The value; the original of a pre-filled value that had to be cleaned, while it
        is still shown unchanged."""
        if self._unclean is not None and self._unclean[0] == self.value:
            return self._unclean[1]
        return self.value

    def render_line(self, y: int) -> Strip:
        return inert_strip(super().render_line(y))

    def validate_placeholder(self, placeholder: str) -> str:
        return clean(placeholder, multiline=False)

    def replace(self, text: str, start: int, end: int) -> None:
        """Every edit (a key, a paste, a deletion) comes here: what is inserted is kept as
        written, less its control characters."""
        self._writing = True
        try:
            super().replace(typed(text), start, end)
        finally:
            self._writing = False

    def on_key(self, event: events.Key) -> None:
        """A format character typed (a non-joiner, a joiner, a direction mark) goes into the
        value like any other character."""
        character = written_key(event)
        if character is None:
            return
        event.stop()
        event.prevent_default()
        selection = self.selection
        self.replace(character, *sorted((selection.start, selection.end)))
