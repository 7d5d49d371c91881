"""Static, its content always inert (Label, a Static too, is in ``label.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import widgets as textual_widgets

from . import inert

if TYPE_CHECKING:
    from textual.visual import VisualType


class Static(textual_widgets.Static):
    """``textual.widgets.Static`` whose content is always :func:`inert`."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(inert(content), **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(inert(content), layout=layout)

    @property
    def content(self) -> VisualType:
        """The content shown (cleaned)."""
        return super().content

    @content.setter
    def content(self, content: VisualType) -> None:
        textual_widgets.Static.content.fset(self, inert(content))  # type: ignore[attr-defined]

