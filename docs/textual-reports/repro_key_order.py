"""Keys read in one burst overtake a binding that moves the focus: the keys after it reach
the widget the focus is leaving, not the one the binding focused.

A list-like widget has the focus; ``/`` focuses an Input (an App binding, as a "find" key
often is) and ``n`` pushes a screen that is one Input. The keys ``/ a b c`` (then ``n x y``)
arrive as one terminal read delivers them: posted to the app together, as Textual's driver
posts the keys of one read; then ``/ a b c`` one by one, as ``Pilot.press`` sends them.
Run: ``python repro_key_order.py`` (headless, no terminal needed).
"""

from __future__ import annotations

import asyncio

import textual
from textual import events
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Input, Static

CHARACTERS = {"slash": "/"}


class Rows(Static, can_focus=True):
    """Stands for a list: records the keys it receives."""

    def __init__(self) -> None:
        super().__init__("rows")
        self.received: list[str] = []

    def on_key(self, event: events.Key) -> None:
        self.received.append(event.key)


class Typing(Screen[None]):
    """A screen that is all one Input (``n`` opens it from the app)."""

    def compose(self) -> ComposeResult:
        yield Input(id="typing")


class Burst(App[None]):
    BINDINGS = [("slash", "find", "Find"), ("n", "new", "New")]

    def compose(self) -> ComposeResult:
        yield Rows()
        yield Input(id="find")

    def on_mount(self) -> None:
        self.query_one(Rows).focus()

    def action_find(self) -> None:
        self.query_one("#find", Input).focus()

    def action_new(self) -> None:
        self.push_screen(Typing())


async def burst(*keys: str) -> None:
    app = Burst()
    async with app.run_test() as pilot:
        await pilot.pause()
        for key in keys:  # one read of the terminal: every key posted at once
            app.post_message(events.Key(key, CHARACTERS.get(key, key)))
        await pilot.pause()  # until the screen has handled every message
        rows = app.query_one(Rows)
        find = app.query_one("#find", Input)
        typing = app.screen.query(Input).first() if isinstance(app.screen, Typing) else None
        print(f"keys {' '.join(keys)}: Rows received {rows.received}, #find has "
              f"{find.value!r}" + (f", the pushed screen's Input has {typing.value!r}"
                                   if typing is not None else ""))


async def one_by_one(*keys: str) -> None:
    app = Burst()
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press(*keys)  # Pilot waits for each key to be handled
        await pilot.pause()  # until the screen has handled every message
        find = app.query_one("#find", Input)
        print(f"keys {' '.join(keys)} one by one: Rows received "
              f"{app.query_one(Rows).received}, #find has {find.value!r}")


async def main() -> None:
    print(f"textual {textual.__version__}")
    await burst("slash", "a", "b", "c")
    await one_by_one("slash", "a", "b", "c")
    await burst("n", "x", "y")


if __name__ == "__main__":
    asyncio.run(main())
