"""A keymap entry naming a key Textual never delivers is accepted, and its binding then
answers no key.

The terminal reader delivers ``/`` as the key ``slash`` and ``.`` as ``full_stop`` (shown by
feeding it the characters: the reader is private, this only shows what it delivers). The
public ``key_to_character`` maps ``solidus`` to ``/`` but ``slash`` to None; the public
``Binding.make_bindings`` (which normalises ``BINDINGS``) does give the delivered name. An
App binds ``/`` to an action with an id; the keymap then moves it to six spellings
(``/``, ``slash``, ``solidus``, ``period``, ``question mark``, a typo): ``set_keymap``
accepts each, the footer shows each (``solidus`` as ``/``), and ``/`` pressed runs the action
only for the first two. Run: ``python repro_key_names.py`` (headless, no terminal needed).
"""

from __future__ import annotations

import asyncio

import textual
from textual._xterm_parser import XTermParser  # only to show what the terminal delivers
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.keys import key_to_character
from textual.widgets import Footer


class Find(App[None]):
    BINDINGS = [Binding("slash", "find", "Find", id="find")]

    def __init__(self) -> None:
        super().__init__()
        self.found = 0

    def compose(self) -> ComposeResult:
        yield Footer()

    def action_find(self) -> None:
        self.found += 1


async def remapped(keys: str) -> None:
    app = Find()
    async with app.run_test() as pilot:
        try:
            app.set_keymap({"find": keys})
        except Exception as error:  # the report is whether it is refused
            print(f"keymap find={keys!r}: refused ({error!r})")
            return
        await pilot.pause()
        await pilot.press("/")
        bound = [binding for _, binding, _, _ in app.screen.active_bindings.values()
                 if binding.id == "find"]
        print(f"keymap find={keys!r}: accepted, bound to {[b.key for b in bound]}, shown "
              f"as {[app.get_key_display(b) for b in bound]}, '/' pressed ran the action "
              f"{app.found} time(s)")


async def main() -> None:
    print(f"textual {textual.__version__}")
    parser = XTermParser()
    delivered = {character: [getattr(key, "key", key) for key in parser.feed(character)]
                 for character in "/.?-<1"}
    print(f"the terminal reader delivers {delivered}")
    for name in ("slash", "solidus", "full_stop", "period"):
        print(f"key_to_character({name!r}) = {key_to_character(name)!r}")
    made = [binding.key for binding in Binding.make_bindings([("/", "find"), (".", "x")])]
    print(f"Binding.make_bindings of '/' and '.' gives {made}")
    for keys in ("/", "slash", "solidus", "period", "question mark", "slahs"):
        await remapped(keys)


if __name__ == "__main__":
    asyncio.run(main())
