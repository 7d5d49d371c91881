"""TextArea: holds what the person wrote, as it is sent; paints it inert."""

from __future__ import annotations

from typing import Any

from textual import events
from textual import widgets as textual_widgets
from textual.strip import Strip
from textual.widgets.text_area import Edit, EditResult

from . import inert_strip, typed_block, written_key


class TextArea(textual_widgets.TextArea):
    """``textual.widgets.TextArea`` whose text is what will be sent: loaded text and every
    edit, typed or pasted, lose their control characters (tabs and line breaks kept) and
    nothing else, so a Persian name's non-joiner or an emoji family's joiners reach the
    customer intact; every line it paints goes through the sanitiser, so nothing it holds
    can act on the terminal or reorder the screen."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(typed_block(text), **kwargs)

    def load_text(self, text: str) -> None:
        super().load_text(typed_block(text))

    def edit(self, edit: Edit) -> EditResult:
        edit.text = typed_block(edit.text)
        return super().edit(edit)

    def render_line(self, y: int) -> Strip:
        return inert_strip(super().render_line(y))

    def on_key(self, event: events.Key) -> None:
        """A format character typed (a non-joiner, a joiner, a direction mark) goes into the
        text like any other character."""
        character = written_key(event)
        if character is None or self.read_only:
            return
        event.stop()
        event.prevent_default()
        start, end = self.selection
        self.replace(character, start, end)
