"""Where a thread view's scroll stays while messages are mounted, unmounted or grow.

Scroll position is kept by *anchoring*, applied where Textual lays the children out
(:meth:`ThreadAnchoring.arrange`), so no frame ever shows a jump:

* pinned to the bottom (the thread just opened, or the user is at the newest message): every
  layout keeps the view at the bottom, so new messages scroll into view;
* pinned to the top after ``g``;
* otherwise the message at the top of the view keeps its place on screen when messages are
  mounted or unmounted above it (older batches, trimming) or change height.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.widget import Widget

from .thread_window import ThreadWindow

__all__ = ["ThreadAnchoring"]


class ThreadAnchoring(ThreadWindow):
    """Keeps the view pinned or anchored as the window changes; unpins as the user scrolls."""

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """Lay out the children, then keep the view where the reader expects it.

        Called by the compositor before it positions the children with ``scroll_y``, so the
        scroll position set here is used in the very same frame (no visible jump).
        """
        result = super().arrange(size, optimal)
        if optimal or not size.height or result is self._arrangement:
            return result
        previous, self._arrangement = self._arrangement, result
        scroll_y: float | None = None
        if self._pin == "bottom":
            scroll_y = max(0, result.total_region.bottom - size.height)
        elif self._pin == "top":
            scroll_y = 0
        elif previous is not None:
            scroll_y = self._anchored_scroll(previous, result)
        if scroll_y is not None and scroll_y != self.scroll_y:
            self.set_reactive(Widget.scroll_y, scroll_y)
            self.set_reactive(Widget.scroll_target_y, scroll_y)
        self._sync_scrollbar()
        self._schedule_edges()
        return result

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """A scrollbar shown after the view was pinned or anchored starts where the view
        is: Textual moves the thumb only when ``scroll_y`` changes while it is shown, so a
        thread opened at its end would otherwise show its thumb at the top."""
        if shown:
            self._sync_scrollbar()

    def _sync_scrollbar(self) -> None:
        """The thumb where the view is (the position is set without its watcher: the view
        is already there)."""
        if self.show_vertical_scrollbar and self.vertical_scrollbar.position != self.scroll_y:
            self.vertical_scrollbar.set_reactive(
                type(self.vertical_scrollbar).position, self.scroll_y
            )
            self.vertical_scrollbar.refresh()

    def _anchored_scroll(
        self, previous: DockArrangeResult, result: DockArrangeResult
    ) -> float | None:
        """The scroll position that keeps the top visible message where it was."""
        new_regions = {
            placement.widget: placement.region
            for placement in result.placements
            if not placement.fixed
        }
        top = self.scroll_y
        for placement in previous.placements:
            if placement.fixed or placement.region.bottom <= top:
                continue
            region = new_regions.get(placement.widget)
            if region is None:
                continue
            delta = region.y - placement.region.y
            return top + delta if delta else None
        return None

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        at_end = self._hi == len(self._messages)
        if at_end and new_value >= self.max_scroll_y:
            self._pin = "bottom"
            if self._unseen:
                self._unseen = 0
                self._update_indicator()
        elif self._pin == "bottom" or (self._pin == "top" and new_value > 0):
            self._pin = None
        self._schedule_edges()
