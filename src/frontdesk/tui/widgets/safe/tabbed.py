"""TabPane and TabbedContent, their titles always inert."""

from __future__ import annotations

from typing import Any

from textual import widgets as textual_widgets

from . import inert


class TabPane(textual_widgets.TabPane):
    """``textual.widgets.TabPane`` whose title is always :func:`inert`."""

    def __init__(self, title: Any, *children: Any, **kwargs: Any) -> None:
        super().__init__(inert(title), *children, **kwargs)


class TabbedContent(textual_widgets.TabbedContent):
    """``textual.widgets.TabbedContent`` whose titles are always :func:`inert`."""

    def __init__(self, *titles: Any, **kwargs: Any) -> None:
        super().__init__(*(inert(t) for t in titles), **kwargs)
