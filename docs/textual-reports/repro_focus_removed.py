"""A widget that is being removed looks, to the public API, like any mounted widget (but for
``display``, which folds the removal in): code that focuses and shows it (a "focus the new
row once it is mounted" callback, the row trimmed meanwhile) scrolls the view to where it
was, or, through ``Screen.set_focus``, leaves the focus on a widget that is gone.

Sixty focusable rows in a view 10 rows high, scrolled to the end, the last row focused. The
first row is removed (``remove()``, as a list trimming its far end does) and, before that
removal is done, the code that does not know it is removed acts on it, one way per run:
``focus()``; ``focus()`` and ``scroll_visible()``; ``Screen.set_focus()``. It prints what the
public API says of the row while it is being removed, then, once the removal is done, the
focused widget (in the DOM or not), where the view is scrolled, whether the focused row is
on screen, and which row a key pressed next reaches.
Run: ``python repro_focus_removed.py`` (headless, no terminal needed).
"""

from __future__ import annotations

import asyncio

import textual
from textual import events
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

#: who received each key
RECEIVED: list[str] = []


class Row(Static, can_focus=True):
    def on_key(self, event: events.Key) -> None:
        RECEIVED.append(f"{self.id} got {event.key!r}")


class Rows(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll():
            for row in range(60):
                yield Row(f"row {row}", id=f"row{row}")


async def trimmed(way: str) -> None:
    app = Rows()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(VerticalScroll)
        app.query_one("#row59").focus(scroll_visible=False)
        view.scroll_end(animate=False)
        await pilot.pause()
        first = app.query_one("#row0", Row)
        removed = first.remove()
        if way == "":
            print(f"row0 being removed: is_attached={first.is_attached} "
                  f"is_mounted={first.is_mounted} focusable={first.focusable} "
                  f"display={first.display}")
        if "focus()" in way:
            first.focus()
        if "scroll_visible()" in way:
            first.scroll_visible(animate=False)
        if way == "Screen.set_focus()":
            app.screen.set_focus(first)
        await removed
        await pilot.pause()
        RECEIVED.clear()
        await pilot.press("j")
        focused = app.focused
        on_screen = focused is not None and app.screen.can_view_entire(focused)
        print(f"{way or 'nothing done'}: focused {focused and focused.id} "
              f"(in the DOM: {focused is not None and focused.is_attached}, on screen: "
              f"{on_screen}), view scrolled to {view.scroll_y:.0f} of {view.max_scroll_y}; "
              f"'j' pressed: {RECEIVED or 'no row got it'}")


async def main() -> None:
    print(f"textual {textual.__version__}")
    for way in ("", "focus()", "focus() and scroll_visible()", "Screen.set_focus()"):
        await trimmed(way)


if __name__ == "__main__":
    asyncio.run(main())
