"""TextArea: never holds a control or format character."""

from __future__ import annotations

from typing import Any

from textual import widgets as textual_widgets
from textual.document._document import EditResult
from textual.document._edit import Edit

from . import typed_block


class TextArea(textual_widgets.TextArea):
    """``textual.widgets.TextArea`` that never holds a control or format character (tabs
    and line breaks are kept): loaded text and every edit, typed or pasted, are cleaned."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(typed_block(text), **kwargs)

    def load_text(self, text: str) -> None:
        super().load_text(typed_block(text))

    def edit(self, edit: Edit) -> EditResult:
        edit.text = typed_block(edit.text)
        return super().edit(edit)
