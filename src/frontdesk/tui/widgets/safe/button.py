"""Button, its label always inert."""

from __future__ import annotations

from typing import Any

from textual import widgets as textual_widgets
from textual.content import Content

from . import inert


class Button(textual_widgets.Button):
    """``textual.widgets.Button`` whose label is always :func:`inert`."""

    def __init__(self, label: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(inert(label), *args, **kwargs)

    def validate_label(self, label: Any) -> Content:
        return inert(super().validate_label(inert(label)))  # type: ignore[no-any-return]
