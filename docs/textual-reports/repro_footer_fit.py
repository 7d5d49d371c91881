"""The footer at 80 columns: the keys that do not fit are cut in the middle of a word or not
shown at all, with nothing to tell which; and the footer builds all its keys again each time
the focus moves, though the keys are the same.

An App with twelve bindings (a description each, as an app's main screen has) and two panes
runs headless at 80x24. It prints the footer's row as the terminal gets it, then each key:
where it is laid out and whether it shows whole, cut, or not at all. Then the focus moves
between the two panes (the same keys either way) four times, and it counts the footer's
rebuilds and the key widgets made. Run: ``python repro_footer_fit.py`` (headless).
"""

from __future__ import annotations

import asyncio

import textual
from textual.app import App, ComposeResult
from textual.widgets import Footer, Static

WIDTH = 80
#: key → description, as an app's main screen binds them
ACTIONS = {"c": "Claim", "a": "Assign", "x": "Close", "z": "Snooze", "r": "Reply", "n": "Note",
           "t": "Tags", "slash": "Search", "f": "Filter", "ctrl+r": "Refresh",
           "question_mark": "Help", "q": "Quit"}


class CountingFooter(Footer):
    """Textual's footer, counting its rebuilds."""

    rebuilds = 0

    async def recompose(self) -> None:
        CountingFooter.rebuilds += 1
        await super().recompose()


class Pane(Static, can_focus=True):
    """A focusable pane with no keys of its own (a list, a preview)."""


class Keys(App[None]):
    BINDINGS = [(key, description.lower(), description) for key, description in ACTIONS.items()]

    def compose(self) -> ComposeResult:
        yield Pane("one")
        yield Pane("two")
        yield CountingFooter()


async def main() -> None:
    print(f"textual {textual.__version__}; {WIDTH}x24")
    app = Keys()
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        await pilot.pause()
        footer = app.query_one(CountingFooter)
        row = app.screen._compositor.render_strips()[-1].text  # what the terminal shows
        print(f"footer row: {row!r}")
        keys = list(footer.query_children())
        # the palette's key is docked on the right, over whatever is laid out there
        edge = min([key.region.x for key in keys if key.has_class("-command-palette")]
                   or [WIDTH])
        for key in keys:
            region = key.region
            words = getattr(key, "description", "")
            if key.has_class("-command-palette"):
                state = "docked right"
            elif region.x >= edge:
                state = "not shown"
            elif region.right > edge:
                state = f"cut: {row[region.x:edge].strip()!r}"
            else:
                state = "whole"
            print(f"  {words:<8} laid out at columns {region.x:>3}-{region.right:>3}: {state}")

        made = {id(key) for key in footer.query_children()}
        before = CountingFooter.rebuilds
        for _ in range(4):
            await pilot.press("tab")  # the focus moves to the other pane: the same keys
            await pilot.pause()
            made |= {id(key) for key in footer.query_children()}
        print(f"focus moved 4 times between two panes: the footer rebuilt "
              f"{CountingFooter.rebuilds - before} times, {len(made)} key widgets made for "
              f"{len(keys)} keys")


if __name__ == "__main__":
    asyncio.run(main())
