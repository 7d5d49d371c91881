"""Label, its content always inert."""

from __future__ import annotations

from textual import widgets as textual_widgets

from .static import Static


class Label(textual_widgets.Label, Static):
    """``textual.widgets.Label`` whose content is always :func:`inert`, by way of
    :class:`Static` (Textual's Label comes first: its styles follow a widget's first base)."""
