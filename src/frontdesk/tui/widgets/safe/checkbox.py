"""Checkbox, its label always inert."""

from __future__ import annotations

from typing import Any

from textual import widgets as textual_widgets
from textual.content import Content

from . import inert


class Checkbox(textual_widgets.Checkbox):
    """``textual.widgets.Checkbox`` whose label is always :func:`inert`."""

    def _make_label(self, label: Any) -> Content:
        return super()._make_label(inert(label))
