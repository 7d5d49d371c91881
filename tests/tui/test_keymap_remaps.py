"""Key remaps from ``[keys]`` in config.toml: what is not a key, or would take ``ctrl+q`` from
quitting, is refused with a message that names it; the rest applies."""

from __future__ import annotations

from typing import Any

from frontdesk.tui import keymap
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.registry import BINDING_OWNERS
from frontdesk.tui.screens.shared.help import HelpScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py


def test_every_key_the_console_binds_is_a_key() -> None:
    keymap.load_every_screen()
    for info in keymap.catalogue([FrontdeskApp, *BINDING_OWNERS]):
        assert keymap.key_problem(info.keys) is None, info


def test_key_problems_are_named() -> None:
    assert keymap.key_problem("ctrl+g") is None
    assert keymap.key_problem("j,down") is None
    assert keymap.key_problem("question_mark") is None
    for wrong in ("banana", "ctrll+g", "ctrl+", "", "a,,b", "ctrl+banana"):
        assert keymap.key_problem(wrong) is not None, wrong


async def test_invalid_remaps_and_a_second_quit_key_are_refused_and_said(
        console: Console) -> None:
    app = console.app(keys={"app.help": "ctrl+q", "inbox.filter": "banana",
                            "nope.binding": "x", "app.presence": "ctrl+g"})
    async with app.run_test(size=(120, 32)) as pilot:
        await console.ready(pilot)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "Key remaps not applied" in said
        assert "app.help: ctrl+q is kept for quitting" in said
        assert "inbox.filter: 'banana' is not a key" in said
        assert "nope.binding" in said
        await pilot.press("ctrl+g")  # the valid remap applies
        await pilot.pause()
        assert type(app.screen).__name__ == "PresenceScreen"
        await pilot.press("escape")
        await pilot.press("question_mark")  # help kept its key …
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+q")  # … and ctrl+q still quits
        await pilot.pause()
        assert not app.is_running
