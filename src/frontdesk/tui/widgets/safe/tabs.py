"""Tab and Tabs, their labels always inert."""

from __future__ import annotations

from typing import Any

from textual import widgets as textual_widgets

from . import inert


class Tab(textual_widgets.Tab):
    """``textual.widgets.Tab`` whose label is always :func:`inert`."""

    def __init__(self, label: Any, **kwargs: Any) -> None:
        super().__init__(inert(label), **kwargs)


class Tabs(textual_widgets.Tabs):
    """``textual.widgets.Tabs`` whose tab labels are always :func:`inert`."""

    def __init__(self, *tabs: Any, **kwargs: Any) -> None:
        super().__init__(*(t if isinstance(t, Tab) else inert(t) for t in tabs), **kwargs)

    def add_tab(self, tab: Any, **kwargs: Any) -> Any:
        return super().add_tab(tab if isinstance(tab, Tab) else inert(tab), **kwargs)
