"""A light tab strip: a row of labels over a thin bar, painted by one widget.

Textual's ``Tabs`` is ten widgets for five labels (a scroll container, a vertical and a
horizontal box, a ``Tab`` per label and the underline), each composed, styled and painted
on the first frame; this draws the same picture — the labels, the active one bright, the
one under the mouse bright, and the bar beneath with the active label's part highlighted —
as two lines of one widget. A click on a label (or on the bar under it) posts
:class:`ViewTabs.Clicked`; the owner decides what to show and sets :attr:`ViewTabs.active`.
When the labels are wider than the widget, the strip slides left so the active one shows.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...text import one_line

__all__ = ["ViewTabs"]

#: the bar's glyphs (as Textual's underline draws them)
BAR = "━"
HALF_LEFT = "╺"
HALF_RIGHT = "╸"


class ViewTabs(Widget, can_focus=False):
    """Labels in a row with the active one underlined; clickable, never focused."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "view-tabs--tab", "view-tabs--active", "view-tabs--hover", "view-tabs--bar",
    }
    DEFAULT_CSS = """
    ViewTabs {
        width: 1fr;
        height: 2;
        pointer: pointer;
        & > .view-tabs--tab { color: $foreground 50%; }
        & > .view-tabs--active { color: $foreground; }
        & > .view-tabs--hover { color: $foreground; }
        & > .view-tabs--bar { color: $block-cursor-background; background: $foreground 10%; }
        &:ansi {
            & > .view-tabs--tab { text-style: dim; }
            & > .view-tabs--active { text-style: not dim bold; }
            & > .view-tabs--bar { color: $block-cursor-background; background: $border-blurred; }
        }
    }
    """
    ALLOW_SELECT = False

    class Clicked(Message):
        """A label (or the bar under it) was clicked."""

        def __init__(self, tabs: ViewTabs, tab_id: str) -> None:
            super().__init__()
            self.tabs = tabs
            self.tab_id = tab_id

        @property
        def control(self) -> ViewTabs:
            """The strip clicked."""
            return self.tabs

    def __init__(self, tabs: list[tuple[str, str]], *, active: str = "",
                 id: str | None = None) -> None:
        """``tabs``: (id, label) pairs in order; ``active``: the id shown active (the
        first one when not given)."""
        super().__init__(id=id)
        self._labels: dict[str, str] = {tab_id: one_line(label) for tab_id, label in tabs}
        self._active = active or next(iter(self._labels), "")
        self._hover: str | None = None
        self._lines: tuple[tuple[object, ...], list[Strip]] | None = None
        self._styles: dict[str, Style] | None = None

    # ------------------------------------------------------------------ state

    @property
    def tab_ids(self) -> list[str]:
        """The tabs' ids, in order."""
        return list(self._labels)

    @property
    def active(self) -> str:
        """The active tab's id ("" when there are none)."""
        return self._active

    @active.setter
    def active(self, tab_id: str) -> None:
        if tab_id not in self._labels:
            raise ValueError(f"No tab with id {tab_id!r}")
        if tab_id != self._active:
            self._active = tab_id
            self.refresh()

    @property
    def hovered(self) -> str | None:
        """The id of the tab under the mouse (None: none)."""
        return self._hover

    def label_of(self, tab_id: str) -> str | None:
        """A tab's label as shown (None: no such tab)."""
        return self._labels.get(tab_id)

    def set_label(self, tab_id: str, label: str) -> None:
        """Relabel a tab (one that reads the same repaints nothing)."""
        label = one_line(label)
        if tab_id in self._labels and self._labels[tab_id] != label:
            self._labels[tab_id] = label
            self.refresh()

    def add_tab(self, tab_id: str, label: str) -> None:
        """Add a tab at the end (a tab of that id already there is left as it is)."""
        if tab_id in self._labels:
            return
        self._labels[tab_id] = one_line(label)
        if not self._active:
            self._active = tab_id
        self.refresh()

    def remove_tab(self, tab_id: str) -> None:
        """Remove a tab; when it was active, the next one (or the one before) is."""
        if tab_id not in self._labels:
            return
        ids = self.tab_ids
        index = ids.index(tab_id)
        del self._labels[tab_id]
        if self._hover == tab_id:
            self._hover = None
        if self._active == tab_id:
            rest = self.tab_ids
            self._active = rest[min(index, len(rest) - 1)] if rest else ""
        self.refresh()

    def spans(self) -> dict[str, tuple[int, int]]:
        """Where each tab is on the widget, as (first, end) columns, padding included."""
        found: dict[str, tuple[int, int]] = {}
        x = -self._shift(self.size.width)
        for tab_id, label in self._labels.items():
            width = cell_len(label) + 2
            found[tab_id] = (x, x + width)
            x += width
        return found

    def _shift(self, width: int) -> int:
        """Columns the strip is slid left by, so the active tab ends inside ``width``."""
        end = 0
        for tab_id, label in self._labels.items():
            end += cell_len(label) + 2
            if tab_id == self._active:
                return max(0, end - width)
        return 0

    # ------------------------------------------------------------------ mouse

    def _tab_at(self, x: int) -> str | None:
        for tab_id, (start, end) in self.spans().items():
            if start <= x < end:
                return tab_id
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = self._tab_at(event.x) if event.y == 0 else None
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, _event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        tab_id = self._tab_at(event.x)
        if tab_id is not None:
            self.post_message(self.Clicked(self, tab_id))

    # ------------------------------------------------------------------ painting

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._lines = None

    def _palette(self) -> dict[str, Style]:
        styles = self._styles
        if styles is None:
            base = self.rich_style
            full = self.get_component_rich_style
            styles = {name: base + Style(color=style.color, bold=style.bold, dim=style.dim)
                      for name in ("tab", "active", "hover")
                      for style in (full(f"view-tabs--{name}"),)}
            bar = full("view-tabs--bar")
            styles["bar"] = base + Style(color=bar.bgcolor)
            styles["underline"] = base + Style(color=bar.color)
            styles["base"] = base
            styles["pad"] = Style(bgcolor=base.bgcolor)  # around the labels: no text
            self._styles = styles
        return styles

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        key = (width, self._active, self._hover, tuple(self._labels.items()))
        lines = self._lines
        if lines is None or lines[0] != key:
            lines = self._lines = (key, self._paint(width))
        return lines[1][y] if 0 <= y < 2 else Strip.blank(width, self._palette()["base"])

    def _paint(self, width: int) -> list[Strip]:
        """The labels' line and the bar's line."""
        styles = self._palette()
        shift = self._shift(width)
        labels: list[Segment] = []
        start = end = 0
        x = 0
        for tab_id, label in self._labels.items():
            name = ("active" if tab_id == self._active
                    else "hover" if tab_id == self._hover else "tab")
            labels += [Segment(" ", styles["pad"]), Segment(label, styles[name]),
                       Segment(" ", styles["pad"])]
            if tab_id == self._active:
                start, end = x + 1, x + 1 + cell_len(label)
            x += cell_len(label) + 2
        top = Strip(labels).crop_extend(shift, shift + width, styles["pad"])
        return [top, self._bar(start - shift, end - shift, width, styles)]

    @staticmethod
    def _bar(start: int, end: int, width: int, styles: dict[str, Style]) -> Strip:
        """The thin bar, the columns from ``start`` to ``end`` highlighted (as Textual's
        underline draws it: half glyphs at the highlight's ends)."""
        back, under = styles["bar"], styles["underline"]
        start, end = max(start, 0), min(end, width)
        if end <= start:
            return Strip([Segment(BAR * width, back)], width)
        segments = []
        if start > 0:
            segments.append(Segment(BAR * (start - 1) + HALF_RIGHT, back))
        segments.append(Segment(BAR * (end - start), under))
        if end < width:
            segments.append(Segment(HALF_LEFT + BAR * (width - end - 1), back))
        return Strip(segments, width)
