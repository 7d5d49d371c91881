"""The members picker on its own (Admin's teams and queues, a webhook's events): typing on the
list narrows it, whatever the keys' speed."""

from __future__ import annotations

from typing import Any

from frontdesk.tui.key_order import OrderedKeysApp
from frontdesk.tui.screens.admin.members import MembersScreen
from frontdesk.tui.widgets.safe import Input, SelectionList

PEOPLE = [("a1", "Alice Holm"), ("b2", "Bob Berg"), ("c3", "Carla Schmidt"),
          ("d4", "Dana Alvarez")]


class Host(OrderedKeysApp[None]):
    """A bare app to show the picker on, taking keys in order as the console does."""

    def __init__(self) -> None:
        super().__init__()
        self.applied: list[tuple[set[str], set[str]]] = []

    async def apply(self, added: set[str], removed: set[str]) -> None:
        self.applied.append((added, removed))

    def on_mount(self) -> None:
        self.push_screen(MembersScreen("Members of Billing", PEOPLE, {"a1"}, self.apply))


async def test_letters_typed_on_the_list_narrow_it_and_space_then_ticks(console: Any) -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MembersScreen)
        listing = screen.query_one("#members-list", SelectionList)
        assert listing.has_focus
        await console.burst(pilot, "c", "a", "r")  # one read: the filter takes all three
        box = screen.query_one("#members-filter", Input)
        assert box.value == "car"
        assert listing.option_count == 1
        await console.burst(pilot, "enter", "space", "ctrl+s")
        await pilot.pause()
        assert app.applied == [({"c3"}, set())]


async def test_ticked_rows_differ_by_their_mark_not_by_colour_alone() -> None:
    """A ticked member shows ``X`` in its box, an unticked one an empty box (as the tag
    picker's ``[x]`` / ``[ ]``): readable without colours."""
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        listing = app.screen.query_one("#members-list", SelectionList)
        lines = [listing.render_line(y).text for y in range(listing.option_count)]
        ticked = [line[:3] for line, (value, _name) in zip(lines, PEOPLE, strict=True)
                  if value == "a1"]
        unticked = [line[:3] for line, (value, _name) in zip(lines, PEOPLE, strict=True)
                    if value != "a1"]
        assert ticked == ["▐X▌"]
        assert set(unticked) == {"▐ ▌"}
