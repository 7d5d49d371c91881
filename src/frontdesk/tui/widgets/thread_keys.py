"""Moving through a thread view by keys: the focus from message to message, the oldest and
newest, the top and bottom, mounting more of the thread where the window ends."""

from __future__ import annotations

from frontdesk.tui.widgets.message_view import MessageView

from .thread_window import ThreadWindow

__all__ = ["ThreadKeys"]


class ThreadKeys(ThreadWindow):
    """The actions of a thread view's keys (the bindings are the view's)."""

    def _visible_range(self) -> tuple[int, int] | None:
        """Indices (in :attr:`message_views`) of the first and last views in the viewport."""
        if self._arrangement is None:
            return None
        views = self.message_views
        positions = {view: position for position, view in enumerate(views)}
        top = self.scroll_y
        bottom = top + self.scrollable_content_region.height
        first = last = None
        for placement in self._arrangement.placements:
            position = positions.get(placement.widget)  # type: ignore[call-overload]
            if position is None:
                continue
            region = placement.region
            if region.bottom > top and region.y < bottom:
                if first is None:
                    first = position
                last = position
        if first is None or last is None:
            return None
        return first, last

    def _focus_view(self, view: MessageView) -> None:
        view.focus(scroll_visible=False)
        view.scroll_visible(animate=False)

    def action_next_message(self) -> None:
        """Focus the next (newer) message, mounting more below when needed."""
        views = self.message_views
        current = self._focused_index()
        if current is None:
            self._focus_default(views)
        elif current + 1 < len(views):
            self._focus_view(views[current + 1])
        else:
            last = views[current]
            await_mount = self._extend_bottom()
            if await_mount is not None:
                views = self.message_views  # trimming may have shifted the indices
                position = views.index(last) + 1
                if position < len(views):
                    self._focus_after(await_mount, views[position])

    def action_previous_message(self) -> None:
        """Focus the previous (older) message, mounting an older batch when needed."""
        views = self.message_views
        current = self._focused_index()
        if current is None:
            self._focus_default(views)
        elif current > 0:
            self._focus_view(views[current - 1])
        else:
            before = len(self._views)
            await_mount = self._extend_top()
            if await_mount is not None:
                added = len(self._views) - before
                self._focus_after(await_mount, self.message_views[max(0, added - 1)])
            else:
                self.scroll_home(animate=False)

    def _focus_default(self, views: list[MessageView]) -> None:
        """With no message focused, j/k focus the newest message in view."""
        if not views:
            return
        visible = self._visible_range()
        self._focus_view(views[visible[1]] if visible is not None else views[-1])

    def action_first(self) -> None:
        """Go to the oldest message (``g``)."""
        if self._lo > 0:
            await_mount = self._reset_window(0, min(len(self._messages), self.WINDOW), "top")
            if self._views:
                self._focus_after(await_mount, self._views[0])
            return
        self._pin = "top" if self.max_scroll_y > 0 else self._pin
        self.scroll_home(animate=False, immediate=True)
        if self._views:
            self._views[0].focus(scroll_visible=False)

    def action_last(self) -> None:
        """Go to the newest message (``G``) and follow new ones again."""
        self._go_bottom(focus=True)

    def action_end(self) -> None:
        """Scroll to the newest message without moving the focus."""
        self._go_bottom(focus=False)

    def _go_bottom(self, *, focus: bool) -> None:
        self._unseen = 0
        self._update_indicator()
        total = len(self._messages)
        if self._hi < total:
            await_mount = self._reset_window(max(0, total - self.WINDOW), total, "bottom")
            views = self.message_views
            if focus and views:
                self._focus_after(await_mount, views[-1])
            return
        self._pin = "bottom"
        self.scroll_end(animate=False, immediate=True)
        views = self.message_views
        if focus and views:
            views[-1].focus(scroll_visible=False)

    def action_home(self) -> None:
        """Scroll to the top of what is mounted; at the top, mount the older batch."""
        if self.scroll_y <= 0 and self._lo > 0:
            self._extend_top()
        else:
            self.scroll_home(animate=False)
