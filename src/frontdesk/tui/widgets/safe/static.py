"""Static and Label, their content always inert."""

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


class Label(textual_widgets.Label, Static):
    """``textual.widgets.Label`` whose content is always :func:`inert`, by way of
    :class:`Static` (Textual's Label comes first: its styles follow a widget's first base)."""
